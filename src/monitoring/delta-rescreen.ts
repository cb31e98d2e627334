import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { MatchingConfig } from '../infra/config.js';
import type { Db } from '../infra/database.js';
import { changesOfVersions, type ListRecord, type ListSnapshot } from '../lists/index.js';
import { matchIdentifiers, parseStoredIdentifiers, type Screener } from '../screening/index.js';
import { MonitorStore } from './monitor-store.js';
import { recordTerms, searchTerms } from './monitor-terms.js';

/**
 * The delta pass (issue 30, item 3): when new list versions come into force, the monitors that the
 * changed entities can affect are rescreened first, so their alerts go out within seconds; the full
 * pass that follows rescreens the rest. This module finds them.
 *
 * A monitor's result can only change when a listed entity that matches it, or that it matches now,
 * was added, removed or changed. The monitors the changed entities' names and identifiers reach are
 * found through the monitors' terms (monitor-terms.ts, an index in the database, not a read of every
 * monitor); each of their searches is screened against a small index built of the changed entities
 * alone, in both their old and their new form; a monitor is affected when any of them scores within
 * DELTA_MARGIN of the reporting floor, or when its last top match is one of them. What the delta pass cannot see, the full pass catches: scores move a little when the
 * lists' statistics move (how common a name part is on the lists), and the full pass rescreens
 * every monitor against the new versions anyway.
 */

/**
 * Points under the reporting floor at which a changed entity still marks a monitor affected: the
 * small index rates names by their frequency among the changed entities alone, which can differ from
 * the frequency on the whole lists; the margin absorbs that difference.
 */
export const DELTA_MARGIN = 10;

/** Monitors read, keyed or screened against the changed entities per page. */
const PAGE = 500;

export interface ChangedEntities {
  /** The list versions that came into force between the two snapshots. */
  versionIds: string[];
  /** `<source>:<record id>` of every entity added, removed or changed. */
  entityIds: Set<string>;
  /** Their records as they were and as they are now (one or both). */
  records: ListRecord[];
}

/**
 * The entities that changed from `previous` to `next`: the change feed of every version of a source
 * that came into force after the one `previous` screened against, up to the one `next` does.
 */
export async function changedEntities(
  db: Db,
  next: ListSnapshot<unknown>,
  previous: ListSnapshot<unknown>,
): Promise<ChangedEntities> {
  const before = new Map(previous.versions.map((v) => [v.source, v.version]));
  const versionIds: string[] = [];
  for (const version of next.versions) {
    const old = before.get(version.source);
    if (old === version.version) continue;
    // Version ids sort by time: every version of the source put in force after the old one, up to the new one.
    const rows = await db
      .selectFrom('list_versions')
      .select('id')
      .where('source', '=', version.source)
      .where('status', 'in', ['active', 'superseded'])
      .where('id', '<=', version.version)
      .$if(old !== undefined, (q) => q.where('id', '>', old as string))
      .execute();
    versionIds.push(...rows.map((r) => r.id));
  }
  const entityIds = new Set<string>();
  const records: ListRecord[] = [];
  for (const change of await changesOfVersions(db, versionIds)) {
    const id = `${change.source}:${change.recordId}`;
    if (entityIds.has(id)) continue;
    entityIds.add(id);
    const was = previous.record(id);
    const now = next.record(id);
    if (was) records.push(was);
    // Each lookup parses its record anew: the same listing in both snapshots is probed once.
    if (now && (!was || JSON.stringify(now) !== JSON.stringify(was))) records.push(now);
  }
  return { versionIds, entityIds, records };
}

/**
 * Writes the terms of the monitors not keyed yet (created since the last pass, or before migration
 * 0019), so that the lookup of affectedMonitors reaches every monitor; how many were keyed.
 */
export async function keyNewMonitors(db: Db, at: string, stopping: () => boolean): Promise<number> {
  const store = new MonitorStore(db);
  let keyed = 0;
  while (!stopping()) {
    const rows = await store.unkeyed(PAGE);
    if (rows.length === 0) break;
    await db.transaction().execute((trx) =>
      new MonitorStore(trx).saveTerms(
        rows.map((m) => ({ id: m.id, terms: searchTerms(m) })),
        at,
      ),
    );
    keyed += rows.length;
    await yieldToEventLoop();
  }
  return keyed;
}

/**
 * The ids of the monitors that the changed entities can affect, in id order, and how many monitors
 * the lookup reached (screened or taken directly): those whose last top
 * match is one of them, and those their terms reach (monitor-terms.ts) whose search, screened
 * against the changed entities alone, scores within DELTA_MARGIN of the floor. Monitors must be
 * keyed first (keyNewMonitors).
 */
export async function affectedMonitors(
  db: Db,
  changed: ChangedEntities,
  probe: Screener,
  matching: MatchingConfig,
  stopping: () => boolean,
): Promise<{ ids: string[]; reached: number }> {
  if (changed.entityIds.size === 0) return { ids: [], reached: 0 };
  const store = new MonitorStore(db);
  const floor = Math.max(0, matching.floor - DELTA_MARGIN);
  const direct = await store.withLastEntity([...changed.entityIds]);
  const reached = [...(await store.withTerms(recordTerms(changed.records)))].filter((id) => !direct.has(id)).sort();
  const out = new Set(direct);
  // The same search is asked once, whichever organizations monitor it.
  const verdicts = new Map<string, boolean>();
  const pageAt = (at: number) => {
    const read = store.searchesOf(reached.slice(at, at + PAGE));
    // Awaited below unless the pass stops first: a failed read then is no unhandled rejection.
    read.catch(() => undefined);
    return read;
  };
  let next = reached.length > 0 ? pageAt(0) : undefined;
  for (let i = 0; next && !stopping(); i += PAGE) {
    const page = await next;
    // A page's searches are asked PROBES_IN_FLIGHT at a time: a screener in matching threads
    // (start/context.ts) gets them a few to a message, not one round trip each; each verdict is the
    // same screening.
    const unasked = new Map<string, ProbedSearch>();
    for (const monitor of page) {
      const key = verdictKey(monitor);
      if (!verdicts.has(key)) unasked.set(key, monitor);
    }
    const screened = askAll([...unasked], async ([key, monitor]) => {
      verdicts.set(key, await touches(probe, monitor, floor));
    });
    // Once they are sent (a turn of the event loop), the next page is read while they are screened.
    await yieldToEventLoop();
    next = i + PAGE < reached.length ? pageAt(i + PAGE) : undefined;
    await screened;
    for (const monitor of page) if (verdicts.get(verdictKey(monitor))) out.add(monitor.id);
    await yieldToEventLoop();
  }
  return { ids: [...out].sort(), reached: direct.size + reached.length };
}

/**
 * Probes in flight at once: enough that the matching threads always have the next ones queued, few
 * enough that an analyst's screening waits behind a few milliseconds of them, not behind a page.
 */
const PROBES_IN_FLIGHT = 32;

/** Runs `ask` over `items`, at most PROBES_IN_FLIGHT at a time. */
async function askAll<T>(items: T[], ask: (item: T) => Promise<void>): Promise<void> {
  let at = 0;
  const lane = async () => {
    for (let k = at++; k < items.length; k = at++) await ask(items[k]!);
  };
  await Promise.all(Array.from({ length: Math.min(PROBES_IN_FLIGHT, items.length) }, lane));
}

type ProbedSearch = Awaited<ReturnType<MonitorStore['searchesOf']>>[number];

/** Monitors of one search and identifiers share a verdict. */
function verdictKey(monitor: ProbedSearch): string {
  return `${monitor.search_key}\u0000${monitor.identifiers ?? ''}`;
}

/** Whether the monitor's search, screened against the changed entities alone, scores a match from `floor`. */
async function touches(probe: Screener, monitor: ProbedSearch, floor: number): Promise<boolean> {
  const found = await probe.screen(
    {
      name: monitor.query,
      ...(monitor.entity_type ? { entityType: monitor.entity_type as never } : {}),
      ...(monitor.country ? { country: monitor.country } : {}),
      ...(monitor.birth_date ? { birthDate: monitor.birth_date } : {}),
      ...(monitor.identifiers ? { identifiers: matchIdentifiers(parseStoredIdentifiers(monitor.identifiers)) } : {}),
    },
    { floor, maxMatches: 1 },
  );
  return found.matchCount > 0;
}
