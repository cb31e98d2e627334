/** What the console's pages are given: the configuration, the database, the clock and the domain services. */
import type { FastifyInstance } from 'fastify';
import type { AccountsService, SsoService } from '../accounts/index.js';
import type { AuditService } from '../audit/index.js';
import type { BatchService } from '../batches/index.js';
import type { Clock } from '../infra/clock.js';
import type { Config } from '../infra/config.js';
import type { Db } from '../infra/database.js';
import type { ListSyncService } from '../lists/index.js';
import type { AlertsService, MonitorService } from '../monitoring/index.js';
import type { ProfileService } from '../profiles/index.js';
import type { DecisionsService } from '../decisions/index.js';
import type { ScreeningService } from '../screening/index.js';
import type { TenantsService } from '../tenants/index.js';
import type { WebhooksService } from '../webhooks/index.js';
import type { ValidationService } from '../validation/index.js';

export interface ConsoleDeps {
  config: Config;
  db: Db;
  clock: Clock;
  services: {
    accounts: AccountsService;
    tenants: TenantsService;
    screening: ScreeningService;
    monitors: MonitorService;
    alerts: AlertsService;
    webhooks: WebhooksService;
    lists: ListSyncService;
    decisions: DecisionsService;
    audit: AuditService;
    batches: BatchService;
    validation: ValidationService;
    sso: SsoService;
    profiles: ProfileService;
  };
}

/** Every page module registers its routes on the console's encapsulated instance. */
export type PageModule = (app: FastifyInstance, deps: ConsoleDeps) => void;
