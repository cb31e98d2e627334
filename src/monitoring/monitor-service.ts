import { appendAudit } from '../audit/index.js';
import type { Call } from '../infra/context.js';
import { AppError, notFound, validationError } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import { parseStringArray } from '../infra/json.js';
import type { EntityType } from '../lists/index.js';
import {
  mergeIdentifiers,
  parseStoredIdentifiers,
  ScreeningStore,
  searchKey,
  storedIdentifiers,
  validateExternalId,
  validateIdentifiers,
} from '../screening/index.js';
import { type CallerContext, hasApiAccess, TenantsStore, type Tier } from '../tenants/index.js';
import { type MonitorRow, MonitorStore } from './monitor-store.js';
import { DEFAULT_RISK_THRESHOLD } from './alert-rules.js';
import type { CreateMonitorBody } from './monitor-schemas.js';

/** POST/GET/DELETE /monitors (api-v1.md 2.8, 3, 4.4-4.6; DECISIONS.md "Monitors"). */

export interface MonitorDeps {
  /** Called after a monitor is created, so a rescreen can catch up if the lists changed since its screening. */
  onCreated?: () => void;
}

/** isActive: the monitor is live and its organization may use monitoring (Starter or above). */
function isActive(row: Pick<MonitorRow, 'is_active' | 'removed_at'>, tier: Tier): boolean {
  return row.is_active === 1 && row.removed_at === null && hasApiAccess(tier);
}

export function isUniqueViolation(error: unknown): boolean {
  const failure = error as { code?: string; message?: string };
  return (
    failure?.code === '23505' ||
    failure?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    /UNIQUE constraint failed/i.test(failure?.message ?? '')
  );
}

const sameSearchConflict = () => new AppError('CONFLICT', 'this search is already being monitored');

/** The fingerprint of the list versions a screening ran against, as the list runtime computes it. */
function fingerprintOf(listVersions: string): string | null {
  try {
    const versions = JSON.parse(listVersions) as { version?: string }[];
    return Array.isArray(versions) ? versions.map((v) => v.version ?? '').join(',') : null;
  } catch {
    return null;
  }
}

export type MonitorService = ReturnType<typeof monitorService>;

export function monitorService(deps: MonitorDeps = {}) {
  return {
    async createMonitor({ ctx, input }: Call<CreateMonitorBody, CallerContext>) {
      const { caller } = ctx;
      const threshold = input.riskThreshold ?? DEFAULT_RISK_THRESHOLD;
      if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < 0 || threshold > 100) {
        throw validationError('riskThreshold', 'must be a number from 0 to 100');
      }
      const externalId = validateExternalId(input.externalId);
      const screening = await new ScreeningStore(ctx.db).byId(caller.orgId, input.screeningId);
      // A vessel's IMO number is checked by the ship scheme: the screening says whether it is a vessel.
      const added = validateIdentifiers(input.identifiers, (screening?.entity_type ?? null) as EntityType | null);
      if (!screening) throw notFound(`screening "${input.screeningId}"`);
      const own = parseStoredIdentifiers(screening.identifiers);
      const identifiers = mergeIdentifiers(own, added);
      // The monitored search: the screening's, or with more identifiers, the search that names them all.
      const key =
        identifiers.length === own.length
          ? screening.search_key
          : searchKey({
              name: screening.query,
              entityType: screening.entity_type,
              country: screening.country,
              birthDate: screening.birth_date,
              identifiers,
            });
      const store = new MonitorStore(ctx.db);
      if (await store.isMonitored(caller.orgId, key)) throw sameSearchConflict();

      const now = ctx.clock.now();
      const row: MonitorRow = {
        id: newId('mon', now),
        org_id: caller.orgId,
        screening_id: screening.id,
        search_key: key,
        query: screening.query,
        entity_type: screening.entity_type,
        country: screening.country,
        birth_date: screening.birth_date,
        entity_name: screening.entity_name,
        risk_threshold: threshold,
        is_active: 1,
        // The monitor starts from the screening's own result: a list change since then alerts on the next rescreen.
        last_risk_score: screening.risk_score,
        last_risk_level: screening.risk_level,
        last_sources: screening.matched_sources,
        last_entity_id: screening.entity_id,
        last_list_versions: screening.list_versions,
        last_screened_at: screening.created_at,
        rescreen_generation: fingerprintOf(screening.list_versions),
        external_id: externalId ?? screening.external_id,
        created_at: now.toISOString(),
        removed_at: null,
        identifiers: storedIdentifiers(identifiers),
      };
      try {
        await ctx.db.transaction().execute(async (trx) => {
          await new MonitorStore(trx).insert(row);
          await appendAudit(ctx.db, trx, [
            {
              chain: caller.orgId,
              event: 'monitor.created',
              actor: caller.userId,
              subject: row.id,
              at: row.created_at,
              data: {
                screeningId: row.screening_id,
                query: row.query,
                externalId: row.external_id,
                riskThreshold: row.risk_threshold,
                keyId: caller.keyId,
              },
            },
          ]);
        });
      } catch (error) {
        // Two requests for the same search at once: the partial unique index lets one through.
        if (isUniqueViolation(error)) throw sameSearchConflict();
        throw error;
      }
      deps.onCreated?.();
      return {
        id: row.id,
        screeningId: row.screening_id,
        isActive: isActive(row, caller.tier),
        isNew: true,
        entityName: row.entity_name,
        lastRiskScore: row.last_risk_score,
        lastRiskLevel: row.last_risk_level,
        riskThreshold: row.risk_threshold,
        externalId: row.external_id,
        createdAt: row.created_at,
      };
    },

    async listMonitors({ ctx, input }: Call<{ page: number; pageSize: number }, CallerContext>) {
      const { rows, total } = await new MonitorStore(ctx.db).page(ctx.caller.orgId, input);
      // The organization's tier now, not the caller's as the key was checked: the console lists too.
      const tier = ((await new TenantsStore(ctx.db).orgById(ctx.caller.orgId))?.tier ?? 'free') as Tier;
      return {
        items: rows.map((r) => ({
          id: r.id,
          screeningId: r.screening_id,
          query: r.query,
          entityName: r.entity_name,
          isActive: isActive(r, tier),
          riskThreshold: r.risk_threshold,
          lastRiskScore: r.last_risk_score,
          lastRiskLevel: r.last_risk_level,
          lastSources: parseStringArray(r.last_sources),
          lastScreenedAt: r.last_screened_at,
          externalId: r.external_id,
          createdAt: r.created_at,
          identifiers: parseStoredIdentifiers(r.identifiers),
        })),
        total,
      };
    },

    /** Removal keeps the row (alerts point at it); a removed or foreign monitor is a 404. */
    async removeMonitor({ ctx, input }: Call<{ id: string }, CallerContext>) {
      const at = ctx.clock.now().toISOString();
      const removed = await ctx.db.transaction().execute(async (trx) => {
        if (!(await new MonitorStore(trx).remove(ctx.caller.orgId, input.id, at))) return false;
        await appendAudit(ctx.db, trx, [
          {
            chain: ctx.caller.orgId,
            event: 'monitor.removed',
            actor: ctx.caller.userId,
            subject: input.id,
            at,
            data: { keyId: ctx.caller.keyId },
          },
        ]);
        return true;
      });
      if (!removed) throw notFound(`monitor "${input.id}"`);
      return { id: input.id, removed: true as const };
    },
  };
}
