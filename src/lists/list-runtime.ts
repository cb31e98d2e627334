import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../infra/clock.js';
import type { Db } from '../infra/database.js';
import type { JsonShelf, ShelfMemory } from '../infra/json-shelf.js';
import { ListStore, type ListVersionRow } from './list-store.js';
import type { ListRecord, SourceId } from './model.js';

/** The records of one list version, kept as their stored JSON (infra/json-shelf.ts), found by record id. */
export type RecordShelf = JsonShelf<ListRecord>;

export interface LoadedVersion {
  source: SourceId;
  version: string;
  publishedAt: string | null;
  records: number;
}

/** What a screening runs against: one immutable index and the versions it was built from. */
export interface ListSnapshot<I> {
  index: I;
  versions: LoadedVersion[];
  sources: SourceId[];
  loadedAt: Date;
  /** Version ids joined: changes whenever any source changes. */
  fingerprint: string;
  /**
   * The record with this entity id (`<source>:<record id>`) in these versions, if it is listed in
   * them: parsed from the node's shelf of its version, a new object at every call.
   */
  record(entityId: string): ListRecord | undefined;
  /**
   * Every record of these versions, version after version, parsed from the node's shelves (nothing
   * is read) a page at a time, giving way to the event loop between pages. Where the index was built
   * on this thread, the same objects it holds; else parsed at each call and not kept, so the node
   * holds them only while the caller does.
   */
  records(): Promise<ListRecord[]>;
  /**
   * The memory of the versions' shelves, one a version in their order: another thread parses the
   * records from it (shelfItems) with no copy and no database read.
   */
  shelves: readonly ShelfMemory[];
}

/** Records parsed between two turns of the event loop (about a megabyte of JSON). */
const PARSE_PAGE = 1000;

/** Every record on the shelves, in order, a page at a time with a turn of the event loop between pages. */
async function parsedInPages(shelves: readonly RecordShelf[]): Promise<ListRecord[]> {
  const records: ListRecord[] = [];
  for (const shelf of shelves) {
    for (let i = 0; i < shelf.size; i++) {
      records.push(shelf.at(i));
      if (records.length % PARSE_PAGE === 0) await nextTurn();
    }
  }
  return records;
}

/** A lookup of records by entity id on the versions' shelves (a version's records are all of its source). */
function recordLookup(versions: readonly ListVersionRow[], shelves: readonly RecordShelf[]) {
  const bySource = new Map<string, RecordShelf>();
  versions.forEach((version, i) => bySource.set(version.source, shelves[i]!));
  return (entityId: string): ListRecord | undefined => {
    const colon = entityId.indexOf(':');
    return colon < 0 ? undefined : bySource.get(entityId.slice(0, colon))?.find(entityId.slice(colon + 1));
  };
}

export interface ListRuntimeOptions<I> {
  db: Db;
  clock: Clock;
  /**
   * Builds the index of the versions' records, one shelf a version; `records` parses them all, and
   * they are then kept as the snapshot's (an index built on this thread takes them so; matching
   * threads read the shelves).
   */
  buildIndex: (shelves: readonly RecordShelf[], records: () => Promise<ListRecord[]>) => I | Promise<I>;
  onSwap?: (snapshot: ListSnapshot<I>, previous: ListSnapshot<I> | undefined) => void;
  log?: (message: string, detail?: Record<string, unknown>) => void;
}

/**
 * Holds the list snapshot this node screens against. `refresh()` reads the active versions from the
 * database; when any differs from the loaded ones, it loads the records, builds a new index aside and
 * swaps the reference in one assignment, so a screening sees either the old lists or the new ones,
 * never a mix or a half-loaded list. Every node polls, so all nodes pick up a new version.
 */
export class ListRuntime<I> {
  private snapshot: ListSnapshot<I> | undefined;
  private refreshing: Promise<boolean> | undefined;
  /** The shelves of the versions loaded, by version id: a new snapshot reads only the versions that changed. */
  private readonly cache = new Map<string, RecordShelf>();
  private readonly listeners: ((snapshot: ListSnapshot<I>, previous: ListSnapshot<I> | undefined) => void)[] = [];

  constructor(private readonly options: ListRuntimeOptions<I>) {}

  current(): ListSnapshot<I> | undefined {
    return this.snapshot;
  }

  /** Called after every swap to new list versions (monitoring rescreens on it). */
  onChange(listener: (snapshot: ListSnapshot<I>, previous: ListSnapshot<I> | undefined) => void): void {
    this.listeners.push(listener);
  }

  /** Loads new versions if there are any; returns true when the snapshot changed. Concurrent calls share one run. */
  refresh(): Promise<boolean> {
    if (!this.refreshing) {
      this.refreshing = this.doRefresh().finally(() => {
        this.refreshing = undefined;
      });
    }
    return this.refreshing;
  }

  private async doRefresh(): Promise<boolean> {
    const store = new ListStore(this.options.db);
    const active = await store.activeVersions();
    const fingerprint = active.map((v) => v.id).join(',');
    if (active.length === 0 || fingerprint === this.snapshot?.fingerprint) return false;

    const started = performance.now();
    const shelves: RecordShelf[] = [];
    for (const version of active) shelves.push(this.cache.get(version.id) ?? (await store.shelf(version.id)));
    let kept: Promise<ListRecord[]> | undefined;
    const index = await this.options.buildIndex(shelves, () => (kept ??= parsedInPages(shelves)));
    const previous = this.snapshot;
    this.snapshot = {
      index,
      versions: active.map(toLoaded),
      sources: [...new Set(active.map((v) => v.source as SourceId))],
      loadedAt: this.options.clock.now(),
      fingerprint,
      record: recordLookup(active, shelves),
      records: () => kept ?? parsedInPages(shelves),
      shelves: shelves.map((shelf) => shelf.memory),
    };
    this.cache.clear();
    active.forEach((version, i) => this.cache.set(version.id, shelves[i]!));
    this.options.log?.('lists loaded', {
      versions: active.map((v) => `${v.source}:${v.id}`),
      records: shelves.reduce((sum, shelf) => sum + shelf.size, 0),
      tookMs: Math.round(performance.now() - started),
    });
    this.options.onSwap?.(this.snapshot, previous);
    for (const listener of this.listeners) listener(this.snapshot, previous);
    return true;
  }
}

function toLoaded(v: ListVersionRow): LoadedVersion {
  return { source: v.source as SourceId, version: v.id, publishedAt: v.published_at, records: v.record_count };
}
