/**
 * The compact in-memory ownership graph. The full GLEIF golden copy is about 3 million LEIs and
 * 500 thousand relationships, so nodes are interned to integers and relationships live in typed
 * arrays; per-node strings (name, country) are kept in flat arrays indexed by node.
 */
import { RELATIONSHIP_KINDS, type OwnershipEntity, type RelationshipKind, type Stake } from './model.js';
import { FULL_OWNERSHIP, toPercent } from './percent.js';

const KIND_CODE: Record<RelationshipKind, number> = {
  stake: 0,
  no_percentage: 1,
  indirect: 2,
  not_ownership: 3,
  inactive: 4,
};
export const STAKE_KIND = KIND_CODE.stake;

/**
 * Relationships of the same family between the same two nodes describe one fact, possibly
 * restated by a later file (a GLEIF delta, a corrected CSV): the latest record wins. A CSV row and
 * a GLEIF direct-consolidation record are the same family: both state the direct holding.
 */
function familyOf(type: string, typeIndex: number): number {
  if (type === 'STAKE' || type === 'IS_DIRECTLY_CONSOLIDATED_BY') return 0;
  if (type === 'IS_ULTIMATELY_CONSOLIDATED_BY') return 1;
  return 2 + typeIndex;
}

/** LEIs are 20 characters [A-Z0-9] (ISO 17442). */
const LEI_PATTERN = /^[A-Z0-9]{18}[0-9]{2}$/;

export function normalizeLei(value: string): string | undefined {
  const lei = value.replace(/\s+/g, '').toUpperCase();
  return LEI_PATTERN.test(lei) ? lei : undefined;
}

/** YYYY-MM-DD to a day number (0 when absent), so record dates fit an Int32Array. */
export function dayOf(date: string | undefined): number {
  if (!date) return 0;
  const time = Date.parse(date.slice(0, 10));
  return Number.isNaN(time) ? 0 : Math.floor(time / 86_400_000);
}
export function dateOfDay(day: number): string | undefined {
  return day > 0 ? new Date(day * 86_400_000).toISOString().slice(0, 10) : undefined;
}

class GrowableInt32 {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  trimmed(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

export interface EntityInput {
  name?: string;
  otherNames?: OwnershipEntity['otherNames'];
  country?: string;
  status?: string;
}

export interface RelationshipInput {
  /** Owner node key: an LEI or a list entity id such as `us_ofac:12345`. */
  owner: string;
  owned: string;
  /** Scaled percentage (percent.ts), -1 when none. */
  amount: number;
  kind: RelationshipKind;
  type: string;
  /** Record date as a day number (dayOf); later wins among duplicates. */
  day: number;
}

export class OwnershipGraphBuilder {
  private readonly index = new Map<string, number>();
  private readonly keys: string[] = [];
  private readonly names: (string | undefined)[] = [];
  private readonly countries: (string | undefined)[] = [];
  private readonly statuses: (string | undefined)[] = [];
  private readonly otherNames = new Map<number, OwnershipEntity['otherNames']>();
  private entityDay = new GrowableInt32(1024);
  private readonly owner = new GrowableInt32();
  private readonly owned = new GrowableInt32();
  private readonly amount = new GrowableInt32();
  private readonly day = new GrowableInt32();
  private readonly meta = new GrowableInt32(); // kind | family << 8
  private readonly types: string[] = [];
  private readonly typeIndex = new Map<string, number>();
  private readonly typeOf = new GrowableInt32();
  private readonly interned = new Map<string, string>();

  node(key: string): number {
    let node = this.index.get(key);
    if (node === undefined) {
      node = this.keys.length;
      this.index.set(key, node);
      this.keys.push(key);
      this.names.push(undefined);
      this.countries.push(undefined);
      this.statuses.push(undefined);
      this.entityDay.push(-1);
    }
    return node;
  }

  /** Short repeated strings (countries, statuses) are shared rather than copied per entity. */
  private intern(s: string | undefined): string | undefined {
    if (s === undefined) return undefined;
    let interned = this.interned.get(s);
    if (interned === undefined) {
      interned = s;
      this.interned.set(s, s);
    }
    return interned;
  }

  /** Records LEI reference data; among several records of one LEI the latest (by day) wins. */
  setEntity(lei: string, entity: EntityInput, day: number): void {
    const node = this.node(lei);
    if ((this.entityDay.data[node] ?? -1) > day) return;
    this.entityDay.data[node] = day;
    this.names[node] = entity.name;
    this.countries[node] = this.intern(entity.country);
    this.statuses[node] = this.intern(entity.status);
    if (entity.otherNames && entity.otherNames.length > 0) this.otherNames.set(node, entity.otherNames);
    else this.otherNames.delete(node);
  }

  private readonly entityLinks = new Map<string, string>();

  /** Says that a list entry (`us_ofac:12345`) is the entity with this LEI (CSV owner_entity_id). */
  linkEntityId(entityId: string, lei: string): void {
    this.entityLinks.set(entityId, lei);
  }

  /** Names an owner that has no LEI record (a CSV row with owner_name), unless one is known. */
  nameIfUnknown(key: string, name: string): void {
    const node = this.node(key);
    if (this.names[node] === undefined) this.names[node] = name;
  }

  addRelationship(rel: RelationshipInput): void {
    let typeList = this.typeIndex.get(rel.type);
    if (typeList === undefined) {
      typeList = this.types.length;
      this.types.push(rel.type);
      this.typeIndex.set(rel.type, typeList);
    }
    this.owner.push(this.node(rel.owner));
    this.owned.push(this.node(rel.owned));
    this.amount.push(rel.amount);
    this.day.push(rel.day);
    this.meta.push(KIND_CODE[rel.kind] | (familyOf(rel.type, typeList) << 8));
    this.typeOf.push(typeList);
  }

  get relationshipCount(): number {
    return this.owner.length;
  }

  /** De-duplicates relationships (latest record per owner, owned entity and family) and freezes. */
  finish(): OwnershipGraph {
    const edgeCount = this.owner.length;
    const owner = this.owner.data;
    const owned = this.owned.data;
    const meta = this.meta.data;
    const day = this.day.data;
    const order = new Int32Array(edgeCount);
    for (let i = 0; i < edgeCount; i++) order[i] = i;
    // Stable order within a group: date, then load order, so the last of a run is the winner.
    order.sort(
      (a, b) =>
        owned[a]! - owned[b]! ||
        owner[a]! - owner[b]! ||
        (meta[a]! >> 8) - (meta[b]! >> 8) ||
        day[a]! - day[b]! ||
        a - b,
    );
    const keep = new GrowableInt32(Math.max(16, edgeCount));
    for (let i = 0; i < edgeCount; i++) {
      const edge = order[i]!;
      const next = i + 1 < edgeCount ? order[i + 1]! : -1;
      const sameGroup =
        next >= 0 &&
        owned[next] === owned[edge] &&
        owner[next] === owner[edge] &&
        meta[next]! >> 8 === meta[edge]! >> 8;
      if (!sameGroup) keep.push(edge);
    }
    const kept = keep.length;
    const edges: GraphEdges = {
      owner: new Int32Array(kept),
      owned: new Int32Array(kept),
      amount: new Int32Array(kept),
      day: new Int32Array(kept),
      kind: new Uint8Array(kept),
      type: new Uint16Array(kept),
    };
    for (let i = 0; i < kept; i++) {
      const edge = keep.data[i]!;
      edges.owner[i] = owner[edge]!;
      edges.owned[i] = owned[edge]!;
      edges.amount[i] = this.amount.data[edge]!;
      edges.day[i] = day[edge]!;
      edges.kind[i] = meta[edge]! & 0xff;
      edges.type[i] = this.typeOf.data[edge]!;
    }
    return new OwnershipGraph(
      this.index,
      this.keys,
      this.names,
      this.countries,
      this.statuses,
      this.otherNames,
      edges,
      this.types,
      edgeCount - kept,
      this.entityLinks,
    );
  }
}

export interface GraphEdges {
  owner: Int32Array;
  owned: Int32Array;
  /** Scaled percentage, -1 when the relationship has none. */
  amount: Int32Array;
  day: Int32Array;
  kind: Uint8Array;
  type: Uint16Array;
}

export class OwnershipGraph {
  constructor(
    readonly index: ReadonlyMap<string, number>,
    readonly keys: readonly string[],
    readonly names: readonly (string | undefined)[],
    readonly countries: readonly (string | undefined)[],
    private readonly statuses: readonly (string | undefined)[],
    private readonly otherNames: ReadonlyMap<number, OwnershipEntity['otherNames']>,
    readonly edges: GraphEdges,
    private readonly types: readonly string[],
    /** Relationship records dropped because a later record restated them. */
    readonly superseded: number,
    /** List entries tied to an LEI by the stakes CSV (owner_entity_id beside owner_lei). */
    readonly entityLinks: ReadonlyMap<string, string>,
  ) {}

  get nodeCount(): number {
    return this.keys.length;
  }

  get edgeCount(): number {
    return this.edges.owner.length;
  }

  /** Entity by LEI, from LEI reference data; undefined when no LEI record names it. */
  entity(lei: string): OwnershipEntity | undefined {
    const node = this.index.get(lei);
    if (node === undefined || this.names[node] === undefined || !normalizeLei(lei)) return undefined;
    return this.entityAt(node);
  }

  entityAt(n: number): OwnershipEntity {
    const lei = this.keys[n]!;
    const entity: OwnershipEntity = { lei, otherNames: this.otherNames.get(n) ?? [] };
    const name = this.names[n];
    if (name !== undefined) entity.name = name;
    const country = this.countries[n];
    if (country !== undefined) entity.country = country;
    const status = this.statuses[n];
    if (status !== undefined) entity.status = status;
    return entity;
  }

  /** Every LEI that has reference data. */
  *entities(): IterableIterator<OwnershipEntity> {
    for (let n = 0; n < this.keys.length; n++) {
      if (this.names[n] !== undefined && normalizeLei(this.keys[n]!)) yield this.entityAt(n);
    }
  }

  stakeAt(i: number): Stake {
    const edges = this.edges;
    const ownerKey = this.keys[edges.owner[i]!]!;
    const stake: Stake = {
      owner: ownerKey,
      ownedLei: this.keys[edges.owned[i]!]!,
      kind: RELATIONSHIP_KINDS[edges.kind[i]!]!,
      type: this.types[edges.type[i]!]!,
    };
    if (normalizeLei(ownerKey)) stake.ownerLei = ownerKey;
    else stake.ownerEntityId = ownerKey;
    const amount = edges.amount[i]!;
    if (amount >= 0) stake.percentage = toPercent(amount);
    const asOf = dateOfDay(edges.day[i]!);
    if (asOf) stake.asOf = asOf;
    return stake;
  }

  /** Every relationship kept after de-duplication, counted or not (see Stake.kind). */
  *stakes(): IterableIterator<Stake> {
    for (let i = 0; i < this.edgeCount; i++) yield this.stakeAt(i);
  }

  countByKind(): Record<RelationshipKind, number> {
    const out = Object.fromEntries(RELATIONSHIP_KINDS.map((k) => [k, 0])) as Record<RelationshipKind, number>;
    for (let i = 0; i < this.edgeCount; i++) out[RELATIONSHIP_KINDS[this.edges.kind[i]!]!]++;
    return out;
  }

  /** Entities whose counted stakes add up to more than 100 % (a sign of inconsistent data). */
  overOwned(): string[] {
    const sum = new Float64Array(this.nodeCount);
    const edges = this.edges;
    for (let i = 0; i < this.edgeCount; i++)
      if (edges.kind[i] === STAKE_KIND) sum[edges.owned[i]!]! += edges.amount[i]!;
    const out: string[] = [];
    for (let n = 0; n < sum.length; n++) if (sum[n]! > FULL_OWNERSHIP) out.push(this.keys[n]!);
    return out;
  }
}
