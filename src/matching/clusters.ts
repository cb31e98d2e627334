/**
 * Clusters: the same party listed by several authorities, linked at index time through shared
 * identifiers (UN reference, IMO, passport, registration, LEI...) or the same normalized name
 * with the same birth date or country on two different lists.
 */
import type { IdentifierType, ListRecord } from '../lists/index.js';
import { recordCountries } from './corroboration.js';
import { normalizeName, type NamePart } from './normalize.js';
import { SCORING } from './scoring-table.js';

const LINKING_IDS = new Set<IdentifierType>([
  'un_ref',
  'imo',
  'mmsi',
  'passport',
  'national_id',
  'registration',
  'tax_id',
  'lei',
  'swift',
  'aircraft_tail',
  'crypto_address',
]);
/** An identifier or name key shared by more rows than this is too generic to link on. */
const MAX_GROUP = SCORING.MAX_GROUP.value;

export interface Clusters {
  /** Root record index of each record's cluster (the first record of the cluster). */
  clusterOf: Int32Array;
  /** Members of each multi-record cluster, by root. */
  members: Map<number, number[]>;
}

export function buildClusters(records: ListRecord[]): Clusters {
  const steps = clusterSteps(
    records,
    records.map(recordCountries),
    records.map((r) => normalizeName(r.name, r.entityType === 'person').parts),
    Infinity,
  );
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The clustering as a generator that yields every `step` records (see MatchingIndex.buildAsync).
 * `countries` and `primaryParts` are the records' countries and normalized primary names, which the
 * index has computed already.
 */
export function* clusterSteps(
  records: ListRecord[],
  countries: string[][],
  primaryParts: (NamePart[] | undefined)[],
  step: number,
): Generator<void, Clusters, void> {
  const parent = new Int32Array(records.length);
  for (let i = 0; i < parent.length; i++) parent[i] = i;
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  const union = (a: number, b: number): void => {
    const rootA = find(a);
    const rootB = find(b);
    if (rootA === rootB) return;
    // The lower index stays root, so the cluster id is stable for a given record order.
    if (rootA < rootB) parent[rootB] = rootA;
    else parent[rootA] = rootB;
  };
  const groups = new Map<string, number[]>();
  const add = (key: string, i: number): void => {
    const group = groups.get(key);
    if (group) {
      if (group[group.length - 1] !== i) group.push(i);
    } else groups.set(key, [i]);
  };
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    for (const id of record.identifiers) {
      if (!LINKING_IDS.has(id.type)) continue;
      // "IMO 9123456" and "9123456" are one number.
      const idValue =
        id.type === 'imo' || id.type === 'mmsi'
          ? id.value.replace(/\D/g, '')
          : id.value.toUpperCase().replace(/[^0-9A-Z]/g, '');
      // Short values ("123") are not identifying across lists.
      if (idValue.length < 5) continue;
      add(`${id.type === 'national_id' || id.type === 'passport' ? 'doc' : id.type}:${idValue}`, i);
    }
    const key = nameKey(primaryParts[i] ?? []);
    if (key) {
      for (const birth of record.birthDates)
        if (!birth.approximate && birth.date.length >= 4) add(`n:${key}|b:${birth.date}`, i);
      for (const country of countries[i] ?? []) add(`n:${key}|c:${country}`, i);
      if (record.entityType === 'vessel' || record.entityType === 'aircraft') add(`n:${key}|t:${record.entityType}`, i);
    }
    if (i % step === 0) yield;
  }
  let groupCount = 0;
  for (const [key, group] of groups) {
    if (++groupCount % (step * 16) === 0) yield;
    if (group.length < 2 || group.length > MAX_GROUP) continue;
    const byName = key.startsWith('n:');
    for (let k = 1; k < group.length; k++) {
      // Names alone link only rows of different lists: two rows of one list with the same name
      // and country are two parties unless an identifier says otherwise.
      if (byName && records[group[0]!]!.source === records[group[k]!]!.source) continue;
      union(group[0]!, group[k]!);
    }
  }
  const clusterOf = new Int32Array(records.length);
  const members = new Map<number, number[]>();
  for (let i = 0; i < records.length; i++) {
    const root = find(i);
    clusterOf[i] = root;
    if (i % (step * 16) === 0) yield;
    const cluster = members.get(root);
    if (cluster) cluster.push(i);
    else members.set(root, [i]);
  }
  for (const [root, cluster] of members) if (cluster.length < 2) members.delete(root);
  return { clusterOf, members };
}

/** Order-free normalized name with at least two word parts; undefined when too thin to link on. */
function nameKey(all: NamePart[]): string | undefined {
  const parts = all.filter((p) => p.kind === 'word' || p.kind === 'patronymic' || p.kind === 'number');
  if (parts.length < 2) return undefined;
  return parts
    .map((p) => p.text)
    .sort()
    .join(' ');
}
