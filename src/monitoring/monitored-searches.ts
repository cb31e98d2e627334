import type { Db } from '../infra/database.js';
import { type TableWatch, watchTables } from '../infra/table-watch.js';
import { MonitorStore } from './monitor-store.js';

/**
 * Whether searches are monitored, as every POST /screen asks (screening's MonitoredSearches): most
 * organizations monitor nothing, so each node remembers per organization whether it has any live
 * monitor, while the monitors table does not change (infra/table-watch.ts: on SQLite the file tells;
 * on PostgreSQL the table's trigger notifies every node, migration 0023, and this node's own writes
 * count at once). An organization with monitors is asked about the search itself, as before; without
 * a working watch (PostgreSQL while its listening connection is down) every question reads.
 */
interface Cache {
  watch: TableWatch | undefined;
  version?: number | undefined;
  /** Organization -> whether it had a live monitor at `version`. */
  orgs: Map<string, boolean>;
}

/** Organizations remembered at most; beyond that the cache starts afresh. */
const MAX_ORGS = 10_000;
const caches = new WeakMap<Db, Cache>();

function cacheOf(db: Db): Cache {
  let cache = caches.get(db);
  if (!cache) {
    cache = { watch: watchTables(db, ['monitors']), orgs: new Map() };
    caches.set(db, cache);
  }
  return cache;
}

/** False only when the organization is known to monitor nothing. */
async function mayMonitor(db: Db, store: MonitorStore, orgId: string): Promise<boolean> {
  const cache = cacheOf(db);
  // The version is taken before any read: a change after it shows as a newer version next time.
  const version = cache.watch?.version();
  if (version === undefined) return true;
  if (version !== cache.version || cache.orgs.size >= MAX_ORGS) {
    cache.orgs.clear();
    cache.version = version;
  }
  let known = cache.orgs.get(orgId);
  if (known === undefined) {
    known = await store.monitorsAny(orgId);
    // Kept only while no newer version has been seen: one seen during the read may postdate it.
    if (cache.watch?.version() === version) cache.orgs.set(orgId, known);
  }
  return known;
}

/** The MonitoredSearches of screening-service.ts on `db`. */
export function monitoredSearches(db: Db) {
  const store = new MonitorStore(db);
  return {
    async isMonitored(orgId: string, searchKey: string): Promise<boolean> {
      return (await mayMonitor(db, store, orgId)) && store.isMonitored(orgId, searchKey);
    },
    async monitoredAmong(orgId: string, searchKeys: string[]): Promise<Set<string>> {
      if (searchKeys.length === 0 || !(await mayMonitor(db, store, orgId))) return new Set();
      return store.monitoredAmong(orgId, searchKeys);
    },
  };
}
