import { parseStringArray } from '../infra/json.js';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../infra/clock.js';
import type { MatchingConfig, MonitoringConfig } from '../infra/config.js';
import type { DatabaseHandle } from '../infra/database.js';
import type { Database, MonitorsTable } from '../infra/db-schema.js';
import { newId } from '../infra/ids.js';
import { releaseLease, tryAcquireLease } from '../infra/job-lock.js';
import type { ListSnapshot } from '../lists/list-runtime.js';
import { ListStore } from '../lists/list-store.js';
import type { Screener } from '../screening/screening-service.js';
import { enqueueDelivery } from '../webhooks/delivery-store.js';
import { type AlertPayload, serializeEvent } from '../webhooks/payload.js';
import { alertReasons, listLabels } from './alert-rules.js';

export interface RescreenDeps {
  database: DatabaseHandle;
  clock: Clock;
  matching: MatchingConfig;
  monitoring: MonitoringConfig;
  nodeId: string;
  lists: () => ListSnapshot<Screener> | undefined;
  /** Called when a batch wrote webhook deliveries (the delivery worker sends them at once). */
  onDeliveries?: () => void;
  log?: (level: 'info' | 'warn' | 'error', message: string, detail?: Record<string, unknown>) => void;
}

export interface PassReport {
  fingerprint: string;
  rescreened: number;
  changed: number;
  alerts: number;
  batches: number;
  /** Why the pass stopped early, if it did. */
  stopped?: string;
}

const LEASE_NAME = 'monitors-rescreen';
const LEASE_MS = 5 * 60 * 1000;
/** Longest stretch of screening between two yields to the event loop, so API requests are served during a pass. */
const SLICE_MS = 20;

type MonitorCandidate = MonitorsTable & { org_slug: string; org_name: string; webhook_url: string | null };

interface Rescreened {
  monitor: MonitorCandidate;
  riskScore: number;
  riskLevel: string;
  sources: string[];
  entityId: string | null;
  entityName: string | null;
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/**
 * Rescreens monitors against the lists in force (api-v1.md 1 and 3; DECISIONS.md "Monitors", "Alerts
 * and webhooks"). A monitor is due when it was last screened against other list versions than the
 * loaded ones (its rescreen_generation), or longer ago than RESCREEN_INTERVAL. A pass works in batches
 * of RESCREEN_BATCH_SIZE and yields to the event loop inside and between them; it runs under a lease
 * so one node of a deployment does it, and on PostgreSQL each batch is also claimed with
 * FOR UPDATE SKIP LOCKED. The monitor's new state, its alert and the alert's webhook delivery are
 * written in one transaction, so a crash neither loses an alert nor raises it twice.
 */
export class Rescreener {
  private running: Promise<PassReport | undefined> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly deps: RescreenDeps) {}

  /** Rescreen on a timer too, so the daily rescreen happens without a list change. */
  start(): void {
    this.stopped = false;
    const every = Math.min(this.deps.monitoring.maxIntervalMs, 60_000);
    this.timer = setInterval(() => this.kick(), every);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Runs a pass soon; calls during a pass run one more pass after it. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.runUntilIdle().catch((error) => this.deps.log?.('error', 'rescreen failed', { err: String(error) }));
  }

  /** Runs passes until no kick arrived during the last one. */
  async runUntilIdle(): Promise<PassReport | undefined> {
    if (this.running) {
      this.again = true;
      await this.running.catch(() => undefined);
      if (this.running) return this.running;
    }
    let report: PassReport | undefined;
    do {
      this.again = false;
      this.running = this.runPass();
      try {
        report = await this.running;
      } finally {
        this.running = undefined;
      }
    } while (this.again && !this.stopped);
    return report;
  }

  /** One pass over every due monitor; undefined when lists are not loaded or another node holds the lease. */
  async runPass(): Promise<PassReport | undefined> {
    const snapshot = this.deps.lists();
    if (!snapshot) return undefined;
    const { db } = this.deps.database;
    const holder = this.deps.nodeId;
    if (!(await tryAcquireLease(db, this.deps.clock, LEASE_NAME, holder, LEASE_MS))) {
      this.deps.log?.('info', 'rescreen skipped: another node holds the lease');
      return undefined;
    }
    const started = performance.now();
    const report: PassReport = { fingerprint: snapshot.fingerprint, rescreened: 0, changed: 0, alerts: 0, batches: 0 };
    const cache = new Map<string, Omit<Rescreened, 'monitor'>>();
    let cursor = '';
    try {
      for (;;) {
        if (this.stopped) {
          report.stopped = 'stopping';
          break;
        }
        // A node whose lists lag behind the database must not rescreen (it would flip monitors back).
        const active = (await new ListStore(db).activeVersions()).map((v) => v.id).join(',');
        if (active !== snapshot.fingerprint || this.deps.lists() !== snapshot) {
          // The runtime's next swap (onChange) starts a new pass against the new lists.
          report.stopped = 'lists changed during the pass';
          break;
        }
        if (!(await tryAcquireLease(db, this.deps.clock, LEASE_NAME, holder, LEASE_MS))) {
          report.stopped = 'lease lost';
          break;
        }
        const batch = await this.processBatch(snapshot, cursor, cache);
        if (batch.count === 0) break;
        cursor = batch.lastId;
        report.batches++;
        report.rescreened += batch.count;
        report.changed += batch.changed;
        report.alerts += batch.alerts;
        if (batch.alerts > 0) this.deps.onDeliveries?.();
        await yieldToEventLoop();
      }
    } finally {
      await releaseLease(db, LEASE_NAME, holder).catch(() => undefined);
    }
    if (report.rescreened > 0 || report.stopped) {
      this.deps.log?.('info', 'rescreen pass', { ...report, tookMs: Math.round(performance.now() - started) });
    }
    return report;
  }

  private selectDue(
    exec: Kysely<Database> | Transaction<Database>,
    fingerprint: string,
    cursor: string,
    cutoff: string,
  ) {
    let query = exec
      .selectFrom('monitors as m')
      .innerJoin('organizations as o', 'o.id', 'm.org_id')
      .selectAll('m')
      .select(['o.slug as org_slug', 'o.name as org_name', 'o.webhook_url'])
      .where('m.removed_at', 'is', null)
      .where('m.is_active', '=', 1)
      // Organizations below Starter keep their monitors, inactive (DECISIONS.md "Monitors").
      .where('o.tier', '!=', 'free')
      .where('m.id', '>', cursor)
      .where((eb) =>
        eb.or([
          eb('m.rescreen_generation', 'is', null),
          eb('m.rescreen_generation', '!=', fingerprint),
          eb('m.last_screened_at', '<', cutoff),
        ]),
      )
      .orderBy('m.id')
      .limit(this.deps.monitoring.batchSize);
    // PostgreSQL only: another node's claimed rows are skipped, not waited for.
    if (this.deps.database.engine === 'postgres') query = query.forUpdate('m').skipLocked();
    return query.execute() as Promise<MonitorCandidate[]>;
  }

  private async screenAll(
    snapshot: ListSnapshot<Screener>,
    rows: MonitorCandidate[],
    cache: Map<string, Omit<Rescreened, 'monitor'>>,
  ) {
    const results: Rescreened[] = [];
    let sliceStart = performance.now();
    for (const monitor of rows) {
      let outcome = cache.get(monitor.search_key);
      if (!outcome) {
        const screened = await snapshot.index.screen(
          {
            name: monitor.query,
            ...(monitor.entity_type ? { entityType: monitor.entity_type as never } : {}),
            ...(monitor.country ? { country: monitor.country } : {}),
            ...(monitor.birth_date ? { birthDate: monitor.birth_date } : {}),
          },
          { floor: this.deps.matching.floor, maxMatches: this.deps.matching.maxMatches },
        );
        outcome = {
          riskScore: screened.riskScore,
          riskLevel: screened.riskLevel,
          sources: screened.matchedSources,
          entityId: screened.entityId,
          entityName: screened.entityName,
        };
        cache.set(monitor.search_key, outcome);
        if (performance.now() - sliceStart >= SLICE_MS) {
          await yieldToEventLoop();
          sliceStart = performance.now();
        }
      }
      results.push({ monitor, ...outcome });
    }
    return results;
  }

  private async processBatch(
    snapshot: ListSnapshot<Screener>,
    cursor: string,
    cache: Map<string, Omit<Rescreened, 'monitor'>>,
  ) {
    const { db, engine } = this.deps.database;
    const now = this.deps.clock.now();
    const cutoff = new Date(now.getTime() - this.deps.monitoring.maxIntervalMs).toISOString();
    const fingerprint = snapshot.fingerprint;
    if (engine === 'postgres') {
      // Claim, screen and write inside one transaction: the row locks are the claim.
      return db.transaction().execute(async (trx) => {
        const rows = await this.selectDue(trx, fingerprint, cursor, cutoff);
        if (rows.length === 0) return { count: 0, lastId: cursor, changed: 0, alerts: 0 };
        const results = await this.screenAll(snapshot, rows, cache);
        return {
          count: rows.length,
          lastId: rows[rows.length - 1]!.id,
          ...(await this.write(trx, snapshot, results, now)),
        };
      });
    }
    // SQLite has one writer and the service one process: screen outside the transaction so the
    // connection is free for API requests meanwhile, then write the batch at once.
    const rows = await this.selectDue(db, fingerprint, cursor, cutoff);
    if (rows.length === 0) return { count: 0, lastId: cursor, changed: 0, alerts: 0 };
    const results = await this.screenAll(snapshot, rows, cache);
    const written = await db.transaction().execute((trx) => this.write(trx, snapshot, results, now));
    return { count: rows.length, lastId: rows[rows.length - 1]!.id, ...written };
  }

  private async write(trx: Transaction<Database>, snapshot: ListSnapshot<Screener>, results: Rescreened[], now: Date) {
    const at = now.toISOString();
    const versions = JSON.stringify(snapshot.versions);
    const unchanged: string[] = [];
    let changed = 0;
    let alerts = 0;
    for (const r of results) {
      const m = r.monitor;
      const oldSources = parseStringArray(m.last_sources);
      const same =
        r.riskScore === m.last_risk_score &&
        r.riskLevel === m.last_risk_level &&
        r.entityId === m.last_entity_id &&
        sameSet(r.sources, oldSources);
      if (same && r.entityName === m.entity_name) {
        unchanged.push(m.id);
        continue;
      }
      changed++;
      const updated = await trx
        .updateTable('monitors')
        .set({
          last_risk_score: r.riskScore,
          last_risk_level: r.riskLevel,
          last_sources: JSON.stringify(r.sources),
          last_entity_id: r.entityId,
          entity_name: r.entityName,
          last_list_versions: versions,
          last_screened_at: at,
          rescreen_generation: snapshot.fingerprint,
        })
        .where('id', '=', m.id)
        .where('removed_at', 'is', null)
        .executeTakeFirst();
      // Removed since it was read (SQLite path): no alert for a monitor the user no longer has.
      if (Number(updated.numUpdatedRows) === 0) continue;
      const reasons = alertReasons(
        { riskScore: m.last_risk_score, riskLevel: m.last_risk_level, sources: oldSources },
        { riskScore: r.riskScore, riskLevel: r.riskLevel, sources: r.sources },
        m.risk_threshold,
      );
      if (reasons.length === 0) continue;
      alerts++;
      const id = newId('alt', now.getTime());
      // A party that drops off the lists has no new top entity: the alert names the one it had.
      const entityId = r.entityId ?? m.last_entity_id;
      const entityName = r.entityName ?? m.entity_name;
      await trx
        .insertInto('alerts')
        .values({
          id,
          org_id: m.org_id,
          monitor_id: m.id,
          entity_id: entityId,
          entity_name: entityName,
          old_risk_score: m.last_risk_score,
          new_risk_score: r.riskScore,
          old_risk_level: m.last_risk_level,
          new_risk_level: r.riskLevel,
          old_sources: JSON.stringify(oldSources),
          new_sources: JSON.stringify(r.sources),
          reasons: JSON.stringify(reasons),
          list_versions: versions,
          created_at: at,
          resolved_at: null,
          resolved_by: null,
          note: null,
        })
        .execute();
      if (m.webhook_url) {
        const alert: AlertPayload = {
          id,
          monitorId: m.id,
          entityId,
          entityName,
          oldRiskScore: m.last_risk_score,
          newRiskScore: r.riskScore,
          oldRiskLevel: m.last_risk_level,
          newRiskLevel: r.riskLevel,
          oldSources,
          newSources: r.sources,
          oldLists: listLabels(oldSources),
          newLists: listLabels(r.sources),
          reasons,
          riskThreshold: m.risk_threshold,
          query: m.query,
          timestamp: at,
          resolvedAt: null,
        };
        const payload = serializeEvent(
          'alert.created',
          at,
          { id: m.org_id, slug: m.org_slug, name: m.org_name },
          alert,
        );
        await enqueueDelivery(trx, {
          orgId: m.org_id,
          alertId: id,
          event: 'alert.created',
          payload,
          isTest: false,
          now,
        });
      }
    }
    // Monitors whose result did not change only move to the new generation, in bulk.
    for (let i = 0; i < unchanged.length; i += 500) {
      await trx
        .updateTable('monitors')
        .set({ last_screened_at: at, last_list_versions: versions, rescreen_generation: snapshot.fingerprint })
        .where('id', 'in', unchanged.slice(i, i + 500))
        .execute();
    }
    return { changed, alerts };
  }
}
