import { AuditSealer, auditService, type AuditService } from '../audit/index.js';
import { BatchRunner, batchService, type BatchService } from '../batches/index.js';
import { accountsService, type AccountsService, ssoService, type SsoService } from '../accounts/index.js';
import type { Clock } from '../infra/clock.js';
import type { Config } from '../infra/config.js';
import type { Context, Log } from '../infra/context.js';
import type { DatabaseHandle } from '../infra/database.js';
import { SecretBox } from '../infra/secrets.js';
import { InFlight } from '../infra/in-flight.js';
import type { RedisCounters } from '../infra/redis-counters.js';
import {
  type ListRecord,
  type ListRuntime,
  listStatus,
  type ListSyncDeps,
  type ListSyncService,
  loadListSync,
} from '../lists/index.js';
import {
  alertDecisionTarget,
  alertsService,
  type AlertsService,
  monitorService,
  type MonitorService,
  monitoredSearches,
  Rescreener,
} from '../monitoring/index.js';
import { ownershipSource } from '../ownership/index.js';
import {
  type Screener,
  screeningDecisionTarget,
  screeningHashes,
  screeningService,
  type ScreeningService,
} from '../screening/index.js';
import { decisionHashes, decisionsService, type DecisionsService } from '../decisions/index.js';
import { profileResolver, profileService, type ProfileService } from '../profiles/index.js';
import { RedisQuota, tenantsService, type TenantsService, TenantsStore, UsageFolder } from '../tenants/index.js';
import { assertWebhookUrlAllowed, DeliveryWorker, webhooksService, type WebhooksService } from '../webhooks/index.js';
import { type RunElsewhere, ValidationRunner, validationService, type ValidationService } from '../validation/index.js';
import type { TableWatch } from '../infra/table-watch.js';
import { ListJobs } from './list-jobs.js';
import { inlineScreener } from './matching-pool.js';

/**
 * The domain services and background jobs of one application context, made once and wired to each
 * other here, so that no domain imports another one's internals to reach it: screening asks
 * monitoring whether a search is monitored, new monitors and alerts kick the jobs, the lists domain
 * syncs the ownership-derived source. The HTTP routes and the command line call the same services.
 */

export interface Services {
  tenants: TenantsService;
  screening: ScreeningService;
  monitors: MonitorService;
  alerts: AlertsService;
  webhooks: WebhooksService;
  lists: ListSyncService;
  decisions: DecisionsService;
  audit: AuditService;
  batches: BatchService;
  /** Console sign-in: invitations, passwords, sessions. */
  accounts: AccountsService;
  /** Validation runs and their signed reports (issue 31). */
  validation: ValidationService;
  /** Console sign-in through each organization's OpenID Connect provider. */
  sso: SsoService;
  /** Screening profiles (docs/profiles.md). */
  profiles: ProfileService;
}

/** Background work: none of it runs until start(); tests drive each job's runUntilIdle themselves. */
export interface Jobs {
  lists: ListJobs;
  rescreen: Rescreener;
  deliveries: DeliveryWorker;
  batches: BatchRunner;
  validation: ValidationRunner;
  /** Places and seals the audit entries of screenings (audit/audit-seal.ts). */
  auditSeal: AuditSealer;
  /** Folds the usage appended by group commits into the usage rows (tenants/usage-folder.ts). */
  usageFold: UsageFolder;
  /** Interactive requests under way: the HTTP layer counts them, the batch runner yields to them. */
  interactive: InFlight;
  start(): void;
  stop(): Promise<void>;
}

export interface WiringHost {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  runtime: ListRuntime<Screener>;
  nodeId: string;
  /** The counters shared by the nodes (REDIS_URL). */
  counters?: RedisCounters;
  /** On PostgreSQL: tells the profile cache when any node changed a profile (profiles/profile-resolver.ts). */
  profileWatch?: TableWatch | undefined;
  /**
   * Builds a screener over a few records in the matching threads (start/context.ts), where the
   * engine runs warm and off the HTTP thread, and frees it; without it, on this thread.
   */
  probes?: { build: (records: ListRecord[]) => Promise<Screener>; release: (probe: Screener) => void };
  /** Does a validation run's work in a thread of its own (start/validation-thread-client.ts). */
  validationElsewhere?: RunElsewhere;
  log?: Log;
}

/**
 * The list sync, made on first use: its adapters and their parsers (exceljs among them) load only
 * when a sync runs, so the command line's other commands start without them.
 */
function lazyListSync(deps: ListSyncDeps): ListSyncService {
  let made: Promise<ListSyncService> | undefined;
  const sync = () => (made ??= loadListSync().then((m) => m.listSyncService(deps)));
  return {
    syncSource: async (call) => (await sync()).syncSource(call),
    syncSources: async (call) => (await sync()).syncSources(call),
    status: ({ ctx }) => listStatus(ctx, deps.config),
  };
}

/** What the services are made with besides the host: the jobs they kick and the shared parts. */
interface ServiceParts {
  secrets: SecretBox;
  profileOf: ReturnType<typeof profileResolver>;
  rescreen: Rescreener;
  deliveries: DeliveryWorker;
  lists: ListSyncService;
  kickBatches: () => void;
  kickValidation: () => void;
}

function buildServices(host: WiringHost, parts: ServiceParts): Services {
  const { config, database, clock, runtime, nodeId, log } = host;
  const logged = log ? { log } : {};
  const { secrets, profileOf, rescreen, deliveries } = parts;
  const tenants = tenantsService({
    checkWebhookUrl: (url) => assertWebhookUrlAllowed(url, config.webhooks.allowPrivateAddresses),
    sealSecret: (plain) => secrets.seal(plain),
  });
  return {
    tenants,
    screening: screeningService({
      matching: config.matching,
      lists: () => runtime.current(),
      monitored: monitoredSearches,
      ...(host.counters && config.redis ? { quota: new RedisQuota(host.counters, config.redis.quotaSettleMs) } : {}),
      profileOf,
    }),
    monitors: monitorService({ onCreated: () => rescreen.job.kick() }),
    alerts: alertsService({ onDeliveries: () => deliveries.job.kick() }),
    webhooks: webhooksService({ database, clock, config: config.webhooks, nodeId, secrets, ...logged }),
    lists: parts.lists,
    decisions: decisionsService({
      lists: () => runtime.current(),
      screeningTarget: screeningDecisionTarget,
      alertTarget: alertDecisionTarget,
    }),
    audit: auditService({
      config: config.audit,
      records: { 'screening.created': screeningHashes, 'decision.created': decisionHashes },
      orgId: async (db, slug) => (await new TenantsStore(db).orgBySlug(slug))?.id,
    }),
    batches: batchService({ onQueued: parts.kickBatches }),
    accounts: accountsService({ config: config.console, tenants }),
    validation: validationService({
      signingConfigured: config.validation.signingKey !== undefined,
      onQueued: parts.kickValidation,
    }),
    sso: ssoService({ config: config.console, secrets }),
    profiles: profileService({ lists: () => runtime.current(), matching: config.matching }),
  };
}

/** The batch and validation runners, which yield to interactive requests. */
function buildRunners(
  host: WiringHost,
  parts: { services: Services; interactive: InFlight; deliveries: DeliveryWorker },
): { batches: BatchRunner; validation: ValidationRunner } {
  const { config, database, clock, runtime, nodeId, log } = host;
  const logged = log ? { log } : {};
  const { services, interactive, deliveries } = parts;
  const batches = new BatchRunner({
    interactive,
    database,
    clock,
    config: config.batches,
    nodeId,
    screening: services.screening,
    monitors: services.monitors,
    listsReady: () => runtime.current() !== undefined,
    onDeliveries: () => deliveries.job.kick(),
    ...logged,
  });
  const validation = new ValidationRunner({
    database,
    clock,
    nodeId,
    lists: () => runtime.current(),
    signingKey: config.validation.signingKey,
    floor: config.matching.floor,
    interactive,
    activationSample: config.validation.activationSample,
    ...(host.validationElsewhere ? { elsewhere: host.validationElsewhere } : {}),
    onDeliveries: () => deliveries.job.kick(),
    ...logged,
  });
  return { batches, validation };
}

function jobsOf(parts: Omit<Jobs, 'start' | 'stop'>): Jobs {
  const all = [
    parts.auditSeal,
    parts.usageFold,
    parts.lists,
    parts.rescreen,
    parts.deliveries,
    parts.batches,
    parts.validation,
  ];
  return {
    ...parts,
    start() {
      for (const worker of all) worker.job.start();
    },
    async stop() {
      await Promise.all(all.map((worker) => worker.job.stop()));
    },
  };
}

export function wire(host: WiringHost): { services: Services; jobs: Jobs } {
  const { config, database, clock, runtime, nodeId, log } = host;
  const logged = log ? { log } : {};
  const operator: Context = { db: database.db, clock };
  // Webhook secrets are sealed at rest when SECRET_KEY is set (infra/secrets.ts).
  const secrets = new SecretBox(config.ops);

  const profileOf = profileResolver({ configFloor: config.matching.floor, watch: host.profileWatch });
  const deliveries = new DeliveryWorker({ database, clock, config: config.webhooks, nodeId, secrets, ...logged });
  const rescreen = new Rescreener({
    database,
    clock,
    matching: config.matching,
    monitoring: config.monitoring,
    nodeId,
    lists: () => runtime.current(),
    // The changed entities of a delta pass: a few records, indexed in milliseconds, in the matching
    // threads when there are some (screened there as every other screening is), else on this thread.
    probe: host.probes?.build ?? ((records) => inlineScreener(records)),
    ...(host.probes ? { releaseProbe: host.probes.release } : {}),
    onDeliveries: () => deliveries.job.kick(),
    profileOf,
    ...(config.http.publicUrl ? { publicUrl: config.http.publicUrl } : {}),
    ...logged,
  });
  const lists = lazyListSync({ config: config.lists, derived: [ownershipSource(config.ownership)] });
  const services = buildServices(host, {
    secrets,
    profileOf,
    rescreen,
    deliveries,
    lists,
    kickBatches: () => runners.batches.job.kick(),
    kickValidation: () => runners.validation.job.kick(),
  });
  const interactive = new InFlight();
  const runners = buildRunners(host, { services, interactive, deliveries });
  // Every swap to new list versions rescreens the monitors against them.
  runtime.onChange((next, previous) => {
    rescreen.noteSwap(next, previous);
    rescreen.job.kick();
    runners.batches.job.kick();
    // A list activation is validated by a quick run (issue 31); its alert goes to the organizations' webhooks.
    void runners.validation
      .activated(next, previous)
      .catch((error: unknown) =>
        log?.('error', 'recording the activation validation run failed', { err: String(error) }),
      );
  });
  const auditSeal = new AuditSealer({
    db: database.db,
    now: () => clock.now(),
    intervalMs: config.audit.sealIntervalMs,
    ...logged,
  });
  const usageFold = new UsageFolder({ db: database.db, ...logged });
  const listJobs = new ListJobs({ config: config.lists, ctx: operator, nodeId, runtime, lists, ...logged });
  return {
    services,
    jobs: jobsOf({ lists: listJobs, rescreen, deliveries, ...runners, auditSeal, usageFold, interactive }),
  };
}
