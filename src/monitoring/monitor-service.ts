import { parseStringArray } from '../infra/json.js';
import type { Clock } from '../infra/clock.js';
import type { Db } from '../infra/database.js';
import type { MonitorsTable } from '../infra/db-schema.js';
import { AppError, notFound, validationError } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import type { Caller } from '../tenants/auth.js';
import { type Tier, hasApiAccess } from '../tenants/tiers.js';
import { DEFAULT_RISK_THRESHOLD, type CreateMonitorBody } from './monitor-schemas.js';

/** POST/GET/DELETE /monitors (api-v1.md 2.8, 3, 4.4-4.6; DECISIONS.md "Monitors"). */

export interface MonitorServiceDeps {
  db: Db;
  clock: Clock;
  /** Called after a monitor is created, so a rescreen can catch up if the lists changed since its screening. */
  onCreated?: () => void;
}

/** isActive: the monitor is live and its organization may use monitoring (Starter or above). */
function isActive(row: Pick<MonitorsTable, 'is_active' | 'removed_at'>, tier: string): boolean {
  return row.is_active === 1 && row.removed_at === null && hasApiAccess(tier as Tier);
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (
    e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/i.test(e?.message ?? '')
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

export async function createMonitor(deps: MonitorServiceDeps, caller: Caller, body: CreateMonitorBody) {
  const threshold = body.riskThreshold ?? DEFAULT_RISK_THRESHOLD;
  if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < 0 || threshold > 100) {
    throw validationError('riskThreshold', 'must be a number from 0 to 100');
  }
  const screening = await deps.db
    .selectFrom('screenings')
    .selectAll()
    .where('id', '=', body.screeningId)
    .where('org_id', '=', caller.orgId)
    .executeTakeFirst();
  if (!screening) throw notFound(`screening "${body.screeningId}"`);

  const existing = await deps.db
    .selectFrom('monitors')
    .select('id')
    .where('org_id', '=', caller.orgId)
    .where('search_key', '=', screening.search_key)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  if (existing) throw sameSearchConflict();

  const now = deps.clock.now();
  const row: MonitorsTable = {
    id: newId('mon', now.getTime()),
    org_id: caller.orgId,
    screening_id: screening.id,
    search_key: screening.search_key,
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
    created_at: now.toISOString(),
    removed_at: null,
  };
  try {
    await deps.db.insertInto('monitors').values(row).execute();
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
    createdAt: row.created_at,
  };
}

export async function listMonitors(
  deps: Pick<MonitorServiceDeps, 'db'>,
  caller: Pick<Caller, 'orgId'>,
  query: { page: number; pageSize: number },
) {
  const base = deps.db
    .selectFrom('monitors as m')
    .where('m.org_id', '=', caller.orgId)
    .where('m.removed_at', 'is', null);
  const totalRow = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const rows = await base
    .innerJoin('organizations as o', 'o.id', 'm.org_id')
    .selectAll('m')
    .select('o.tier')
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  return {
    items: rows.map((r) => ({
      id: r.id,
      screeningId: r.screening_id,
      query: r.query,
      entityName: r.entity_name,
      isActive: isActive(r, r.tier),
      riskThreshold: r.risk_threshold,
      lastRiskScore: r.last_risk_score,
      lastRiskLevel: r.last_risk_level,
      lastSources: parseStringArray(r.last_sources),
      lastScreenedAt: r.last_screened_at,
      createdAt: r.created_at,
    })),
    total: Number(totalRow?.n ?? 0),
  };
}

/** Removal keeps the row (alerts point at it); a removed or foreign monitor is a 404. */
export async function removeMonitor(
  deps: Pick<MonitorServiceDeps, 'db' | 'clock'>,
  caller: Pick<Caller, 'orgId'>,
  id: string,
) {
  const result = await deps.db
    .updateTable('monitors')
    .set({ removed_at: deps.clock.now().toISOString(), is_active: 0 })
    .where('id', '=', id)
    .where('org_id', '=', caller.orgId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound(`monitor "${id}"`);
  return { id, removed: true as const };
}
