/**
 * The OFAC 50 percent rule over an ownership graph. OFAC, "Revised Guidance on Entities Owned by
 * Persons Whose Property and Interests in Property Are Blocked" (13 August 2014): an entity owned
 * 50 % or more, directly or indirectly, individually or in the aggregate, by one or more blocked
 * persons is itself blocked. Indirect ownership works through blocked intermediaries: a blocked
 * subsidiary's own stakes count in full, the way OFAC's examples read; stakes held by owners that
 * are not blocked never count.
 */
import { emptyRecord, type Derivation, type ListName, type ListRecord } from '../lists/index.js';
import { normalizeLei, STAKE_KIND, type OwnershipGraph } from './graph.js';
import { BLOCKING_THRESHOLD, FULL_OWNERSHIP, formatPercent, toPercent } from './percent.js';

export interface DeriveInput {
  /** The blocked set: the us_ofac records (SDN and, if the caller wants, non-SDN entries). */
  listed: readonly ListRecord[];
  ownership: { graph: OwnershipGraph; asOf?: string } | OwnershipGraph;
  /** Date the derivations carry; defaults to the ownership data's asOf. */
  asOf?: string;
}

export interface DeriveResult {
  records: ListRecord[];
  stats: {
    /** Graph nodes tied to a listed record (by LEI identifier or owner_entity_id). */
    linkedListed: number;
    /** Listed records that name an LEI the ownership data does not know. */
    unlinkedLeis: number;
    derived: number;
    /** Counted stakes in the graph. */
    stakes: number;
  };
}

const UNBLOCKED = 0;
const LISTED = 1;
const DERIVED = 2;

export function deriveBlocked(input: DeriveInput): ListRecord[] {
  return deriveBlockedWithStats(input).records;
}

export function deriveBlockedWithStats(input: DeriveInput): DeriveResult {
  const graph = 'graph' in input.ownership ? input.ownership.graph : input.ownership;
  const asOf = input.asOf ?? ('graph' in input.ownership ? input.ownership.asOf : undefined) ?? '';
  const { state, listedAt, unlinkedLeis } = linkListed(graph, input.listed);
  const rows = stakeRows(graph);
  const { held, blockedOrder } = blockToFixedPoint(rows, state, listedAt);
  const { pred, predAmount } = strongestChains(rows, state, listedAt, blockedOrder.length - listedAt.size);
  const { programs, contributorsOf } = derivedPrograms(rows, state, listedAt, blockedOrder);

  // 6. Records.
  const records: ListRecord[] = [];
  for (const node of blockedOrder) {
    if (state[node] !== DERIVED) continue;
    records.push(
      buildRecord(
        graph,
        node,
        listedAt,
        contributorsOf.get(node) ?? [],
        held[node]!,
        pred,
        predAmount,
        programs.get(node),
        asOf,
      ),
    );
  }
  records.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    records,
    stats: { linkedListed: listedAt.size, unlinkedLeis, derived: records.length, stakes: rows.stakes },
  };
}

/** 1. Tie listed records to graph nodes, by identifiers only (never by name). */
function linkListed(
  graph: OwnershipGraph,
  listed: readonly ListRecord[],
): { state: Uint8Array; listedAt: Map<number, ListRecord[]>; unlinkedLeis: number } {
  const state = new Uint8Array(graph.nodeCount);
  const listedAt = new Map<number, ListRecord[]>();
  let unlinkedLeis = 0;
  const link = (node: number | undefined, record: ListRecord): boolean => {
    if (node === undefined) return false;
    const records = listedAt.get(node);
    if (records) {
      if (!records.includes(record)) records.push(record);
    } else listedAt.set(node, [record]);
    state[node] = LISTED;
    return true;
  };
  for (const record of listed) {
    for (const id of record.identifiers) {
      if (id.type !== 'lei') continue;
      const lei = normalizeLei(id.value);
      if (lei && !link(graph.index.get(lei), record)) unlinkedLeis++;
    }
    const entityId = `${record.source}:${record.id}`;
    link(graph.index.get(entityId), record);
    const linkedLei = graph.entityLinks.get(entityId);
    if (linkedLei) link(graph.index.get(linkedLei), record);
  }
  return { state, listedAt, unlinkedLeis };
}

/** Counted stakes by owner, as compressed sparse rows: owner u's stakes are start[u] .. start[u + 1]. */
interface StakeRows {
  start: Int32Array;
  target: Int32Array;
  amount: Int32Array;
  stakes: number;
}

/** 2. Counted stakes by owner (compressed sparse rows). */
function stakeRows(graph: OwnershipGraph): StakeRows {
  const nodeCount = graph.nodeCount;
  const edges = graph.edges;
  const start = new Int32Array(nodeCount + 1);
  let stakes = 0;
  for (let i = 0; i < graph.edgeCount; i++) {
    if (edges.kind[i] === STAKE_KIND && edges.amount[i]! > 0) {
      start[edges.owner[i]! + 1]!++;
      stakes++;
    }
  }
  for (let node = 0; node < nodeCount; node++) start[node + 1]! += start[node]!;
  const target = new Int32Array(stakes);
  const amount = new Int32Array(stakes);
  const fill = start.slice(0, nodeCount);
  for (let i = 0; i < graph.edgeCount; i++) {
    if (edges.kind[i] === STAKE_KIND && edges.amount[i]! > 0) {
      const slot = fill[edges.owner[i]!]!++;
      target[slot] = edges.owned[i]!;
      amount[slot] = edges.amount[i]!;
    }
  }
  return { start, target, amount, stakes };
}

/**
 * 3. Worklist to the fixed point. Each blocked node adds its stakes once, so the whole run is
 * O(nodes + stakes); a node is blocked at most once, so cycles end. Sums are integers (percent.ts).
 */
function blockToFixedPoint(
  rows: StakeRows,
  state: Uint8Array,
  listedAt: Map<number, ListRecord[]>,
): { held: Float64Array; blockedOrder: Int32Array } {
  const { start, target, amount } = rows;
  const held = new Float64Array(state.length);
  const queue = new Int32Array(state.length);
  let head = 0;
  let tail = 0;
  for (const node of listedAt.keys()) queue[tail++] = node;
  while (head < tail) {
    const owner = queue[head++]!;
    for (let k = start[owner]!; k < start[owner + 1]!; k++) {
      const owned = target[k]!;
      if (state[owned] === LISTED) continue;
      held[owned]! += amount[k]!;
      if (state[owned] === UNBLOCKED && held[owned]! >= BLOCKING_THRESHOLD) {
        state[owned] = DERIVED;
        queue[tail++] = owned;
      }
    }
  }
  return { held, blockedOrder: queue.subarray(0, tail) };
}

/**
 * 4. Strongest chain: the path from a listed owner whose product of stakes (the effective
 * indirect holding) is largest. Maximizing a product of factors <= 1 is a shortest path on
 * -log(factor) >= 0, so Dijkstra from all listed nodes at once; it only walks blocked nodes.
 */
function strongestChains(
  rows: StakeRows,
  state: Uint8Array,
  listedAt: Map<number, ListRecord[]>,
  derivedCount: number,
): { pred: Int32Array; predAmount: Int32Array } {
  const { start, target, amount } = rows;
  const dist = new Float64Array(state.length).fill(Infinity);
  const pred = new Int32Array(state.length).fill(-1);
  const predAmount = new Int32Array(state.length);
  const heap = new MinHeap(Math.max(16, derivedCount + listedAt.size));
  for (const node of listedAt.keys()) {
    dist[node] = 0;
    heap.push(0, node);
  }
  while (heap.size > 0) {
    const distance = heap.topKey();
    const owner = heap.pop();
    if (distance > dist[owner]!) continue;
    for (let k = start[owner]!; k < start[owner + 1]!; k++) {
      const owned = target[k]!;
      if (state[owned] !== DERIVED) continue;
      const next = distance - Math.log(Math.min(amount[k]!, FULL_OWNERSHIP) / FULL_OWNERSHIP);
      if (next < dist[owned]!) {
        dist[owned] = next;
        pred[owned] = owner;
        predAmount[owned] = amount[k]!;
        heap.push(next, owned);
      }
    }
  }
  return { pred, predAmount };
}

type Contributors = Map<number, { owner: number; amount: number }[]>;

/**
 * 5. Programs: a derived entity carries the programs of the owners that block it. Passes in
 * blocking order reach a fixed point quickly; cycles among derived entities need a second pass.
 */
function derivedPrograms(
  rows: StakeRows,
  state: Uint8Array,
  listedAt: Map<number, ListRecord[]>,
  blockedOrder: Int32Array,
): { programs: Map<number, Set<string>>; contributorsOf: Contributors } {
  const { start, target, amount } = rows;
  const programs = new Map<number, Set<string>>();
  const programsOf = (node: number): ReadonlySet<string> => {
    const records = listedAt.get(node);
    if (records) return new Set(records.flatMap((r) => r.programs));
    return programs.get(node) ?? new Set();
  };
  const contributorsOf: Contributors = new Map();
  for (const owner of blockedOrder) {
    for (let k = start[owner]!; k < start[owner + 1]!; k++) {
      const owned = target[k]!;
      if (state[owned] !== DERIVED) continue;
      let list = contributorsOf.get(owned);
      if (!list) contributorsOf.set(owned, (list = []));
      list.push({ owner: owner, amount: amount[k]! });
    }
  }
  for (let changed = true, pass = 0; changed && pass < 64; pass++) {
    changed = false;
    for (const node of blockedOrder) {
      if (state[node] !== DERIVED) continue;
      let set = programs.get(node);
      if (!set) programs.set(node, (set = new Set()));
      for (const contributor of contributorsOf.get(node) ?? []) {
        for (const program of programsOf(contributor.owner)) {
          if (!set.has(program)) {
            set.add(program);
            changed = true;
          }
        }
      }
    }
  }
  return { programs, contributorsOf };
}

function nameOf(graph: OwnershipGraph, node: number, listedAt: Map<number, ListRecord[]>): string {
  const listed = listedAt.get(node)?.[0];
  return listed?.name ?? graph.names[node] ?? graph.keys[node]!;
}

function leiOf(graph: OwnershipGraph, node: number, listedAt: Map<number, ListRecord[]>): string | undefined {
  const key = graph.keys[node]!;
  if (normalizeLei(key)) return key;
  for (const record of listedAt.get(node) ?? []) {
    const id = record.identifiers.find((i) => i.type === 'lei' && normalizeLei(i.value));
    if (id) return normalizeLei(id.value);
  }
  return undefined;
}

function buildRecord(
  graph: OwnershipGraph,
  owned: number,
  listedAt: Map<number, ListRecord[]>,
  contributors: { owner: number; amount: number }[],
  total: number,
  pred: Int32Array,
  predAmount: Int32Array,
  programs: Set<string> | undefined,
  asOf: string,
): ListRecord {
  const lei = graph.keys[owned]!;
  const entity = graph.entityAt(owned);
  const record = emptyRecord('us_ofac_50', lei, 'organization', entity.name ?? lei);
  record.aliases = entity.otherNames
    .filter((o) => o.name !== record.name)
    .map((o): ListName => ({ name: o.name, quality: 'strong', kind: aliasKind(o) }));
  if (entity.country) record.addresses = [{ country: entity.country }];
  record.identifiers = [{ type: 'lei', value: lei }];
  record.programs = [...(programs ?? [])].sort();

  // Chain from the listed owner down to this entity, following the strongest path.
  const path: { node: number; amount: number }[] = [];
  for (let link = owned, guard = 0; link >= 0 && guard <= graph.nodeCount; link = pred[link]!, guard++) {
    path.push({ node: link, amount: link === owned || !listedAt.has(link) ? predAmount[link]! : 0 });
    if (listedAt.has(link)) break;
  }
  path.reverse();
  const headNode = path[0]!.node;
  const headRecord = listedAt.get(headNode)![0]!;
  const ownerEntityId = `${headRecord.source}:${headRecord.id}`;

  const sorted = [...contributors].sort((a, b) => b.amount - a.amount || a.owner - b.owner);
  const derivation: Derivation = {
    rule: 'ofac_50_percent',
    percentage: toPercent(total),
    ownerEntityId,
    ownerName: headRecord.name,
    chain: path.map(({ node }) => ({ lei: leiOf(graph, node, listedAt) ?? '', name: nameOf(graph, node, listedAt) })),
    contributors: sorted.map(({ owner, amount }) => {
      const contributor: Derivation['contributors'][number] = {
        ownerName: nameOf(graph, owner, listedAt),
        percentage: toPercent(amount),
      };
      const listed = listedAt.get(owner)?.[0];
      if (listed) contributor.ownerEntityId = `${listed.source}:${listed.id}`;
      const ownerLei = leiOf(graph, owner, listedAt);
      if (ownerLei) contributor.ownerLei = ownerLei;
      return contributor;
    }),
    asOf,
  };
  record.derivation = derivation;
  record.reason = reasonOf(graph, listedAt, sorted, total, path, headRecord.name, ownerEntityId);
  return record;
}

function aliasKind(o: { type?: string; transliterated?: boolean }): ListName['kind'] {
  if (o.transliterated) return 'variation';
  return o.type === 'PREVIOUS_LEGAL_NAME' ? 'fka' : 'aka';
}

function reasonOf(
  graph: OwnershipGraph,
  listedAt: Map<number, ListRecord[]>,
  contributors: { owner: number; amount: number }[],
  total: number,
  path: { node: number; amount: number }[],
  ownerName: string,
  ownerEntityId: string,
): string {
  const describe = ({ owner, amount }: { owner: number; amount: number }): string => {
    const listed = listedAt.get(owner)?.[0];
    const name = nameOf(graph, owner, listedAt);
    const who = listed
      ? `OFAC-listed ${name} (${listed.source}:${listed.id})`
      : `${name}, itself blocked under the 50 percent rule`;
    return contributors.length > 1 ? `${who}: ${formatPercent(amount)}` : who;
  };
  const aggregate = contributors.length > 1 ? ' in aggregate' : '';
  let reason = `Owned ${formatPercent(total)}${aggregate} by ${contributors.map(describe).join('; ')}.`;
  if (path.length > 2) {
    const steps = path
      .map(({ node, amount }, i) =>
        i === 0 ? nameOf(graph, node, listedAt) : `${nameOf(graph, node, listedAt)} (${formatPercent(amount)})`,
      )
      .join(' -> ');
    reason += ` Strongest chain from OFAC-listed ${ownerName} (${ownerEntityId}): ${steps}.`;
  }
  return `${reason} Blocked under the OFAC 50 percent rule.`;
}

/** Binary min-heap of (key, node) in typed arrays; stale entries are skipped by the caller. */
class MinHeap {
  private keys: Float64Array;
  private nodes: Int32Array;
  size = 0;
  constructor(capacity: number) {
    this.keys = new Float64Array(capacity);
    this.nodes = new Int32Array(capacity);
  }
  push(key: number, node: number): void {
    if (this.size === this.keys.length) {
      const keys = new Float64Array(this.size * 2);
      keys.set(this.keys);
      this.keys = keys;
      const nodes = new Int32Array(this.size * 2);
      nodes.set(this.nodes);
      this.nodes = nodes;
    }
    let slot = this.size++;
    while (slot > 0) {
      const parent = (slot - 1) >> 1;
      if (this.keys[parent]! <= key) break;
      this.keys[slot] = this.keys[parent]!;
      this.nodes[slot] = this.nodes[parent]!;
      slot = parent;
    }
    this.keys[slot] = key;
    this.nodes[slot] = node;
  }
  topKey(): number {
    return this.keys[0]!;
  }
  pop(): number {
    const top = this.nodes[0]!;
    const lastKey = this.keys[--this.size]!;
    const lastNode = this.nodes[this.size]!;
    let slot = 0;
    for (;;) {
      let child = 2 * slot + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && this.keys[child + 1]! < this.keys[child]!) child++;
      if (this.keys[child]! >= lastKey) break;
      this.keys[slot] = this.keys[child]!;
      this.nodes[slot] = this.nodes[child]!;
      slot = child;
    }
    this.keys[slot] = lastKey;
    this.nodes[slot] = lastNode;
    return top;
  }
}
