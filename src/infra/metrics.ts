import client from 'prom-client';

/**
 * The service's Prometheus metrics (prom-client), one registry per process. Domains record events
 * through the `observe*` functions (a counter increment or a histogram observation: no I/O, no
 * allocation beyond the label lookup); levels that live in the database (list versions, the webhook
 * outbox) and in other threads (the matching queue) are sampled only when /metrics is scraped, by the
 * sampler the composition root sets (start/operations.ts). Nothing is served unless METRICS_PORT or
 * METRICS_TOKEN is set (http/operations.ts).
 */

export const registry = new client.Registry();

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

// HTTP: one histogram; its _count series are the requests by route, method and status.
export const httpDuration = new client.Histogram({
  name: 'sanctions_http_request_duration_seconds',
  help: 'HTTP requests by route (the pattern, e.g. /v1/screenings/:id), method and status, with their latency',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: SECONDS,
  registers: [registry],
});

const screenings = new client.Counter({
  name: 'sanctions_screenings_total',
  help: 'New screenings (POST /screen executions, replays excluded) by risk level',
  labelNames: ['risk_level'] as const,
  registers: [registry],
});
const screeningsBySource = new client.Counter({
  name: 'sanctions_screening_source_matches_total',
  help: 'New screenings with at least one reported match on the source',
  labelNames: ['source'] as const,
  registers: [registry],
});
const matchingDuration = new client.Histogram({
  name: 'sanctions_matching_duration_seconds',
  help: 'Time from handing a screening to the matching engine to its answer (queueing in front of the matching thread included)',
  buckets: SECONDS,
  registers: [registry],
});
const refusals = new client.Counter({
  name: 'sanctions_refusals_total',
  help: 'Requests refused by a limit: rate_limited (per key), auth_rate_limited (failed keys per address), public_rate_limited, quota (TIER_LIMIT_EXCEEDED)',
  labelNames: ['reason'] as const,
  registers: [registry],
});
const rescreenPasses = new client.Histogram({
  name: 'sanctions_rescreen_pass_duration_seconds',
  help: 'Rescreen passes over due monitors, by how they ended (complete or stopped)',
  labelNames: ['outcome'] as const,
  buckets: [0.1, 0.5, 1, 5, 10, 30, 60, 120, 300, 600],
  registers: [registry],
});
const rescreenMonitors = new client.Counter({
  name: 'sanctions_rescreen_monitors_total',
  help: 'Monitors rescreened',
  registers: [registry],
});
const rescreenAlerts = new client.Counter({
  name: 'sanctions_rescreen_alerts_total',
  help: 'Alerts created by rescreen passes',
  registers: [registry],
});
const deliveries = new client.Counter({
  name: 'sanctions_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome: delivered, retry (failed, another attempt scheduled), failed (retries used up)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});
const deliveryDuration = new client.Histogram({
  name: 'sanctions_webhook_delivery_duration_seconds',
  help: 'Duration of webhook delivery attempts',
  buckets: SECONDS,
  registers: [registry],
});
const sqliteLockWaits = new client.Histogram({
  name: 'sanctions_sqlite_lock_wait_seconds',
  help: "Waits of this process's SQLite connection for a lock another connection held (the checkpointer's RESTART, the admin command line): the requests behind it wait as long",
  buckets: SECONDS,
  registers: [registry],
});

// Sampled at scrape time.
const listRecords = gauge('sanctions_list_records', 'Records of the version in force, per source', ['source']);
const listAge = gauge(
  'sanctions_list_version_age_seconds',
  'Seconds since the version in force of the source was fetched (no series before a first good sync)',
  ['source'],
);
const listStale = gauge(
  'sanctions_list_stale',
  '1 when the source is stale (LIST_STALE_AFTER, or its last sync failed)',
  ['source'],
);
const listSyncOk = gauge(
  'sanctions_list_last_sync_ok',
  '1 when the last sync of the source succeeded, 0 when it failed',
  ['source'],
);
const listCheckFailures = gauge(
  'sanctions_list_check_failures',
  'Failed checks of the source in a row (LIST_POLL_INTERVAL checks and syncs; 0 after a good one)',
  ['source'],
);
const listCheckAge = gauge(
  'sanctions_list_last_check_age_seconds',
  'Seconds since the source was last checked for a new version, whatever the check found',
  ['source'],
);
const listLoaded = gauge('sanctions_lists_loaded', '1 when this node screens against loaded lists', []);
const outboxDue = gauge(
  'sanctions_webhook_outbox_due',
  'Webhook deliveries due now and not sent yet (paused webhooks excluded)',
  [],
);
const outboxAge = gauge(
  'sanctions_webhook_outbox_oldest_due_age_seconds',
  'Age of the oldest due delivery (0 when none is due)',
  [],
);
const matchingQueue = gauge(
  'sanctions_matching_queue_depth',
  'Screenings waiting for or inside the matching threads',
  [],
);
const matchingBusy = new client.Counter({
  name: 'sanctions_matching_busy_seconds_total',
  help: 'Time the matching threads spent screening (against the time passed: how busy they are kept)',
  registers: [registry],
});
let matchingBusyCounted = 0;
const matchingThreads = gauge(
  'sanctions_matching_threads',
  'Matching threads running (0 when matching runs on the HTTP thread)',
  [],
);

const validationFinished = gauge(
  'sanctions_validation_last_run_timestamp_seconds',
  'When the newest completed validation run finished (Unix time), by its kind (full, quick, activation)',
  ['kind'],
);
const validationValue = gauge(
  'sanctions_validation_last_run_value',
  'Each summary figure of the newest completed validation run (percent, ms or count, as its measure says)',
  ['measure'],
);
const validationMet = gauge(
  'sanctions_validation_last_run_met',
  "1 when the newest completed validation run's figure meets its threshold, else 0",
  ['measure'],
);

// Batches (issue 13) add theirs here: rows done and queued, e.g. sanctions_batch_rows_total{state}
// (counter, observed by the batch worker) and sanctions_batch_rows_queued (gauge, in MetricsSample).

function gauge<L extends string>(name: string, help: string, labelNames: readonly L[]): client.Gauge<L> {
  return new client.Gauge({ name, help, labelNames, registers: [registry] });
}

export function observeScreening(riskLevel: string, matchedSources: readonly string[], matchingSeconds: number): void {
  screenings.inc({ risk_level: riskLevel });
  for (const source of matchedSources) screeningsBySource.inc({ source });
  matchingDuration.observe(matchingSeconds);
}

export function observeRefusal(reason: 'rate_limited' | 'auth_rate_limited' | 'public_rate_limited' | 'quota'): void {
  refusals.inc({ reason });
}

export function observeRescreenPass(
  report: { rescreened: number; alerts: number; stopped?: string },
  seconds: number,
): void {
  rescreenPasses.observe({ outcome: report.stopped ? 'stopped' : 'complete' }, seconds);
  rescreenMonitors.inc(report.rescreened);
  rescreenAlerts.inc(report.alerts);
}

export function observeDelivery(outcome: 'delivered' | 'retry' | 'failed', durationMs: number): void {
  deliveries.inc({ outcome });
  deliveryDuration.observe(durationMs / 1000);
}

export function observeSqliteLockWait(seconds: number): void {
  sqliteLockWaits.observe(seconds);
}

/** The levels read when /metrics is scraped. */
export interface MetricsSample {
  listsLoaded: boolean;
  lists: {
    source: string;
    records: number;
    ageSeconds: number | null;
    stale: boolean;
    lastSyncOk: boolean;
    checkFailures: number;
    checkAgeSeconds: number | null;
  }[];
  outbox: { due: number; oldestAgeSeconds: number };
  /** `busySeconds`: the matching threads' time spent screening since this process started. */
  matching: { queueDepth: number; threads: number; busySeconds: number };
  /** The newest completed validation run's summary (issue 31), if any. */
  validation?: { kind: string; finishedAt: string; summary: { key: string; value: number; met: boolean }[] };
}

let defaultsOn = false;

/** Process memory, CPU, event-loop lag, heap and GC: prom-client's defaults (standard names), once per process. */
export function enableProcessMetrics(): void {
  if (defaultsOn) return;
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  defaultsOn = true;
}

/** The text Prometheus scrapes: the sample taken now, then every metric of the registry. */
export async function metricsText(sample: () => Promise<MetricsSample>): Promise<string> {
  enableProcessMetrics();
  const sampled = await sample();
  listLoaded.set(sampled.listsLoaded ? 1 : 0);
  for (const metric of [listRecords, listAge, listStale, listSyncOk, listCheckFailures, listCheckAge]) metric.reset();
  for (const list of sampled.lists) {
    listRecords.set({ source: list.source }, list.records);
    if (list.ageSeconds !== null) listAge.set({ source: list.source }, list.ageSeconds);
    listStale.set({ source: list.source }, list.stale ? 1 : 0);
    listSyncOk.set({ source: list.source }, list.lastSyncOk ? 1 : 0);
    listCheckFailures.set({ source: list.source }, list.checkFailures);
    if (list.checkAgeSeconds !== null) listCheckAge.set({ source: list.source }, list.checkAgeSeconds);
  }
  for (const metric of [validationFinished, validationValue, validationMet]) metric.reset();
  if (sampled.validation) {
    validationFinished.set(
      { kind: sampled.validation.kind },
      Math.round(new Date(sampled.validation.finishedAt).getTime() / 1000),
    );
    for (const row of sampled.validation.summary) {
      validationValue.set({ measure: row.key }, row.value);
      validationMet.set({ measure: row.key }, row.met ? 1 : 0);
    }
  }
  outboxDue.set(sampled.outbox.due);
  outboxAge.set(sampled.outbox.oldestAgeSeconds);
  matchingQueue.set(sampled.matching.queueDepth);
  matchingThreads.set(sampled.matching.threads);
  if (sampled.matching.busySeconds > matchingBusyCounted) {
    matchingBusy.inc(sampled.matching.busySeconds - matchingBusyCounted);
    matchingBusyCounted = sampled.matching.busySeconds;
  }
  return registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;
