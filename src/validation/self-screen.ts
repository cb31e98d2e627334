import type { ListRecord } from '../lists/index.js';
import type { MatchOptions } from '../matching/index.js';
import type { Cutoffs, RecallRow, SelfScreenFigures, SelfScreenMiss, ValidationDeps } from './figures.js';
import { ownMatch, screenEach, topScore } from './run-queries.js';
import { collectInTurns } from './seeded.js';

/**
 * Self-screen: does every listed name (primary and aliases) find its own listing at medium or above,
 * and as the top party?
 */

export interface SelfName {
  record: ListRecord;
  name: string;
  nameKind: string;
  quality: string;
}

/**
 * A record's names as the self-screen takes them: primary then aliases, each distinct name once; the
 * derived 50% source has none (its listings are the lists' own parties).
 */
export function namesOf(record: ListRecord): SelfName[] {
  if (record.source === 'us_ofac_50') return [];
  const names: SelfName[] = [];
  const seen = new Set<string>();
  const named = (name: string, nameKind: string, quality: string) => {
    const key = name.trim();
    if (key === '' || seen.has(key)) return;
    seen.add(key);
    names.push({ record, name: key, nameKind, quality });
  };
  named(record.name, 'primary', 'strong');
  for (const alias of record.aliases) named(alias.name, alias.kind, alias.quality);
  return names;
}

/** The numbering of each list snapshot's names, kept while the snapshot is (ListedNames.of). */
const numbered = new WeakMap<readonly ListRecord[], ListedNames>();

/**
 * Every listed name, numbered in record order without being made: where each record's names start.
 * A quick run draws 2,000 of 128,000 names; making them all, each an object kept to the run's end,
 * cost the HTTP thread collections of 20 to 60 ms while the run went on.
 */
export class ListedNames {
  private constructor(
    private readonly records: readonly ListRecord[],
    /** starts[r]: the number of the first name of records[r]; starts[records.length]: the count. */
    private readonly starts: Int32Array,
  ) {}

  /**
   * The numbering of `records`, made once per array of records: runs on the same lists share it (the
   * counting made every name, 10 MB of young objects a run on the HTTP thread).
   */
  static async of(records: readonly ListRecord[], pace?: () => Promise<void>): Promise<ListedNames> {
    const kept = numbered.get(records);
    if (kept) return kept;
    const counts = await collectInTurns(
      (function* () {
        for (const record of records) yield namesOf(record).length;
      })(),
      pace,
    );
    const starts = new Int32Array(records.length + 1);
    counts.forEach((count, r) => (starts[r + 1] = starts[r]! + count));
    const made = new ListedNames(records, starts);
    numbered.set(records, made);
    return made;
  }

  get count(): number {
    return this.starts[this.records.length]!;
  }

  /** The number of the first name of records[r]. */
  startOf(r: number): number {
    return this.starts[r]!;
  }

  /** The name numbered `position` (0 <= position < count). */
  at(position: number): SelfName {
    let low = 0;
    let high = this.records.length - 1;
    // The last record whose names start at or before the position (and has some: the next starts later).
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= position) low = mid;
      else high = mid - 1;
    }
    return namesOf(this.records[low]!)[position - this.starts[low]!]!;
  }
}

export const entityIdOf = (record: ListRecord): string => `${record.source}:${record.id}`;

interface Outcome {
  isFound: boolean;
  isTop: boolean;
  /** Set when the name is not found as the top party. */
  miss?: SelfScreenMiss;
}

async function screenOne(
  listed: SelfName,
  run: { deps: ValidationDeps; options: MatchOptions; cutoffs: Cutoffs },
): Promise<Outcome> {
  const entityId = entityIdOf(listed.record);
  const answer = await run.deps.engine({ name: listed.name, entityType: listed.record.entityType }, run.options);
  const own = ownMatch(answer, entityId);
  const best = topScore(answer);
  const isFound = own !== undefined && own.score >= run.cutoffs.medium;
  // The top party: a match at the top score is this listing or the same party on another list.
  const isTop = isFound && answer.matches.some((m) => m.score === best && m.cluster === own.cluster);
  if (isTop) return { isFound, isTop };
  const leader = answer.matches.find((m) => m.score === best);
  return {
    isFound,
    isTop,
    miss: {
      entityId,
      source: listed.record.source,
      entityType: listed.record.entityType,
      name: listed.name,
      nameKind: listed.nameKind,
      quality: listed.quality,
      ownScore: own?.score ?? null,
      topId: leader?.id ?? null,
      topScore: best,
    },
  };
}

const byKey = (a: RecallRow, b: RecallRow) => a.key.localeCompare(b.key);
const byEntity = (a: SelfScreenMiss, b: SelfScreenMiss) =>
  a.entityId.localeCompare(b.entityId) || a.name.localeCompare(b.name);

/** Screens the chosen names (the focus first) and counts them per source, entity type and quality. */
export async function selfScreen(
  chosen: { focused: SelfName[]; sampled: SelfName[]; focus: ReadonlySet<string> },
  run: { deps: ValidationDeps; options: MatchOptions; cutoffs: Cutoffs },
): Promise<SelfScreenFigures> {
  const names = [...chosen.focused, ...chosen.sampled];
  const outcomes = await screenEach(names, (listed) => screenOne(listed, run), run.deps, 'self-screen');
  const tables = {
    bySource: new Map<string, RecallRow>(),
    byType: new Map<string, RecallRow>(),
    byQuality: new Map<string, RecallRow>(),
  };
  const row = (map: Map<string, RecallRow>, key: string) => {
    let found = map.get(key);
    if (!found) map.set(key, (found = { key, names: 0, found: 0, top: 0 }));
    return found;
  };
  const misses: SelfScreenMiss[] = [];
  const notTop: SelfScreenMiss[] = [];
  const focusMissed = new Set<string>();
  let found = 0;
  let top = 0;
  names.forEach((listed, at) => {
    const { isFound, isTop, miss } = outcomes[at]!;
    const { record } = listed;
    const rows = [
      row(tables.bySource, record.source),
      row(tables.byType, record.entityType),
      row(tables.byQuality, listed.quality),
    ];
    for (const counted of rows) {
      counted.names++;
      if (isFound) counted.found++;
      if (isTop) counted.top++;
    }
    if (isFound) found++;
    if (isTop) top++;
    if (!miss) return;
    (isFound ? notTop : misses).push(miss);
    if (!isFound && chosen.focus.has(miss.entityId)) focusMissed.add(miss.entityId);
  });
  return {
    names: names.length,
    found,
    top,
    bySource: [...tables.bySource.values()].sort(byKey),
    byType: [...tables.byType.values()].sort(byKey),
    byQuality: [...tables.byQuality.values()].sort(byKey),
    misses: misses.sort(byEntity),
    notTop: notTop.sort(byEntity),
    focusMissed: [...focusMissed].sort(),
    focusNames: chosen.focused.length,
    focusEntities: new Set(chosen.focused.map((listed) => entityIdOf(listed.record))).size,
  };
}
