import type { ListRecord } from '../lists/index.js';
import type { MatchOptions } from '../matching/index.js';
import type { Cutoffs, RecallRow, SelfScreenFigures, SelfScreenMiss, ValidationDeps } from './figures.js';
import { ownMatch, screenEach, topScore } from './run-queries.js';

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
 * Every name of every record, primary then aliases, each distinct name of a record once (the derived
 * 50% source left out), one a step.
 */
export function* listedNameSteps(records: readonly ListRecord[]): Generator<SelfName> {
  for (const record of records) {
    if (record.source === 'us_ofac_50') continue;
    const seen = new Set<string>();
    const named = (name: string, nameKind: string, quality: string): SelfName | undefined => {
      const key = name.trim();
      if (key === '' || seen.has(key)) return undefined;
      seen.add(key);
      return { record, name: key, nameKind, quality };
    };
    const primary = named(record.name, 'primary', 'strong');
    if (primary) yield primary;
    for (const alias of record.aliases) {
      const made = named(alias.name, alias.kind, alias.quality);
      if (made) yield made;
    }
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
