/**
 * The matching index: every name of every record, split into parts, with a vocabulary of parts,
 * posting lists, a phonetic-key index and a one-deletion neighbourhood index (SymSpell-style)
 * for typos. A query collects candidates through them, ranks candidates by the weight of the
 * query parts they share, and fully scores a bounded number of them.
 */
import { SOURCE_LABELS, type EntityType, type ListRecord, type NameKind, type NameQuality, type SourceId } from '../lists/model.js';
import { birthDateEffect, countryEffect, entityTypeEffect, recordCountries } from './corroboration.js';
import { buildClusters } from './clusters.js';
import { compareParts, type NameComparison, type ScoredPart } from './name-compare.js';
import { normalizeName, type NamePart } from './normalize.js';
import { phoneticKey } from './similarity.js';
import type { CorroborationEffect, Explanation, Listing, Match, MatchOptions, MatchQuery, RiskLevel, ScreenOutcome } from './types.js';

/** DECISIONS.md "Scores and levels": high >= 80, medium >= 50, else low. */
export const HIGH_BOUNDARY = 80;
export const MEDIUM_BOUNDARY = 50;
export const DEFAULT_FLOOR = MEDIUM_BOUNDARY;
export const DEFAULT_MAX_MATCHES = 10;

export function riskLevelFor(score: number): RiskLevel {
  if (score >= HIGH_BOUNDARY) return 'high';
  if (score >= MEDIUM_BOUNDARY) return 'medium';
  return 'low';
}

/** Information (sum of IDF, nats) of the matched query parts at which a name counts as distinctive. */
const DISTINCTIVE_INFORMATION = 12.5;
/** Weak aliases (OFAC "weak AKA", EU/UK "low quality") count less. */
const WEAK_ALIAS_FACTOR = 0.88;
/** Numbers that do not agree ("11420 Corp" vs "Corp"). */
const NUMBER_CONFLICT_FACTOR = 0.45;
/** Candidates fully scored per query. */
const CANDIDATES = 50;
/** Smoothing of the IDF so that tiny indexes (tests, one-record pair checks) get sane weights. */
const IDF_PRIOR = 1000;

interface NameEntry {
  record: number;
  name: string;
  kind: NameKind;
  quality: NameQuality;
  parts: ScoredPart[];
  /** Sum of word weights, to prefer candidates whose weight the query covers. */
  weight: number;
}

interface RankedName {
  name: number;
  rank: number;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

function deletes(t: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < t.length; i++) {
    const d = t.slice(0, i) + t.slice(i + 1);
    if (out[out.length - 1] !== d) out.push(d);
  }
  return out;
}

function isPersonFlag(t: EntityType | undefined): boolean | undefined {
  return t === undefined ? undefined : t === 'person';
}

export class MatchingIndex {
  readonly size: number;
  readonly sources: SourceId[];
  private readonly records: ListRecord[];
  private readonly countries: string[][];
  private readonly clusterOf: Int32Array;
  private readonly clusterMembers: Map<number, number[]>;
  private readonly names: NameEntry[] = [];
  private readonly vocab = new Map<string, number>();
  private readonly postings: number[][] = [];
  private readonly vocabIdf: number[] = [];
  private readonly vocabLen: number[] = [];
  private readonly byPhonetic = new Map<string, number[]>();
  private readonly byDeletion = new Map<string, number[]>();
  private readonly df = new Map<string, number>();
  private readonly maxIdf: number;
  private readonly pkCache = new Map<string, string>();
  // Scratch buffers reused by every query (queries are synchronous).
  private acc: Float32Array;
  private stamp: Int32Array;
  private stampCounter = 0;

  private constructor(records: ListRecord[]) {
    this.records = records;
    this.size = records.length;
    this.sources = [...new Set(records.map((r) => r.source))];
    this.countries = records.map(recordCountries);
    const normalized: { record: number; name: string; kind: NameKind; quality: NameQuality; parts: NamePart[] }[] = [];
    for (let r = 0; r < records.length; r++) {
      const rec = records[r]!;
      const person = rec.entityType === 'person';
      const seen = new Set<string>();
      const add = (name: string, kind: NameKind, quality: NameQuality): void => {
        const n = normalizeName(name, person);
        if (n.parts.length === 0 || seen.has(n.key)) return;
        seen.add(n.key);
        normalized.push({ record: r, name, kind, quality, parts: n.parts });
      };
      add(rec.name, 'primary', 'strong');
      for (const a of rec.aliases) add(a.name, a.kind, a.quality);
      // Document frequency per record, not per alias, so that a name repeated in ten aliases of
      // one entry does not look common.
      const tokens = new Set<string>();
      for (let i = normalized.length - 1; i >= 0 && normalized[i]!.record === r; i--) {
        for (const p of normalized[i]!.parts) if (p.kind === 'word' || p.kind === 'patronymic') tokens.add(p.text);
      }
      for (const t of tokens) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    }
    this.maxIdf = Math.log((records.length + IDF_PRIOR) / 1);
    for (const n of normalized) {
      const parts = n.parts.map((p) => this.scored(p.text, p.kind, p.translit));
      let weight = 0;
      for (const p of parts) if (p.kind === 'word') weight += p.idf;
      const id = this.names.length;
      this.names.push({ record: n.record, name: n.name, kind: n.kind, quality: n.quality, parts, weight });
      const words = parts.filter((p) => p.kind === 'word' || p.kind === 'patronymic');
      for (const p of words) this.post(p.text, p.idf, id);
      for (let i = 0; i + 1 < words.length; i++) {
        const j = words[i]!.text + words[i + 1]!.text;
        this.post(j, Math.max(words[i]!.idf, words[i + 1]!.idf), id);
      }
    }
    for (const [token, v] of this.vocab) {
      const pk = this.pk(token);
      if (pk.length >= 2) push(this.byPhonetic, pk, v);
      if (token.length >= 4) for (const d of deletes(token)) push(this.byDeletion, d, v);
    }
    this.pkCache.clear();
    this.acc = new Float32Array(this.names.length);
    this.stamp = new Int32Array(this.names.length);
    const clusters = buildClusters(records);
    this.clusterOf = clusters.clusterOf;
    this.clusterMembers = clusters.members;
  }

  static build(records: ListRecord[]): MatchingIndex {
    return new MatchingIndex(records);
  }

  /** Number of indexed names (primary names and aliases, deduplicated per record). */
  get nameCount(): number {
    return this.names.length;
  }

  private pk(text: string): string {
    let k = this.pkCache.get(text);
    if (k === undefined) {
      k = phoneticKey(text);
      if (this.pkCache.size < 200_000) this.pkCache.set(text, k);
    }
    return k;
  }

  private idfOf = (text: string): number | undefined => {
    const df = this.df.get(text);
    return df === undefined ? undefined : Math.log((this.size + IDF_PRIOR) / (df + 1));
  };

  private scored(text: string, kind: NamePart['kind'], translit?: boolean): ScoredPart {
    const idf = kind === 'word' || kind === 'patronymic' ? this.idfOf(text) ?? this.maxIdf : 0;
    const p: ScoredPart = { text, kind, pk: kind === 'word' || kind === 'patronymic' ? phoneticKey(text) : '', idf };
    if (translit) p.translit = true;
    return p;
  }

  private post(token: string, idf: number, nameId: number): void {
    let v = this.vocab.get(token);
    if (v === undefined) {
      v = this.postings.length;
      this.vocab.set(token, v);
      this.postings.push([]);
      this.vocabIdf.push(idf);
      this.vocabLen.push(token.length);
    }
    const list = this.postings[v]!;
    if (list[list.length - 1] !== nameId) list.push(nameId);
  }

  private queryParts(name: string, type: EntityType | undefined): ScoredPart[] {
    const n = normalizeName(name, isPersonFlag(type));
    return n.parts.slice(0, 16).map((p) => this.scored(p.text, p.kind, p.translit));
  }

  /** Candidate names for the query parts, best first. */
  private candidates(q: ScoredPart[]): RankedName[] {
    const touched: number[] = [];
    const acc = this.acc;
    const stamp = this.stamp;
    const words = q.filter((p) => p.kind === 'word' || p.kind === 'patronymic');
    const probes: { text: string; pk: string; idf: number; fuzzy: boolean }[] = words.map((p) => ({ text: p.text, pk: p.pk, idf: p.idf, fuzzy: true }));
    for (let i = 0; i + 1 < words.length; i++) {
      // Joined query parts are looked up exactly only: the fuzzy neighbourhood of every pair costs too much.
      probes.push({ text: words[i]!.text + words[i + 1]!.text, pk: '', idf: Math.max(words[i]!.idf, words[i + 1]!.idf), fuzzy: false });
    }
    for (const probe of probes) {
      const s = ++this.stampCounter;
      const visit = (v: number, quality: number): void => {
        const list = this.postings[v]!;
        const w = Math.min(probe.idf, this.vocabIdf[v]!) * quality;
        for (let k = 0; k < list.length; k++) {
          const id = list[k]!;
          if (stamp[id] === s) continue;
          if (acc[id] === 0) touched.push(id);
          stamp[id] = s;
          acc[id] = acc[id]! + w;
        }
      };
      const exact = this.vocab.get(probe.text);
      if (exact !== undefined) visit(exact, 1);
      if (!probe.fuzzy) continue;
      if (probe.pk.length >= 2) {
        const ph = this.byPhonetic.get(probe.pk);
        const len = probe.text.length;
        // Same skeleton and a similar length: spelling variants, not every word with those consonants.
        if (ph && ph.length <= 400) for (const v of ph) if (Math.abs(this.vocabLen[v]! - len) <= 2) visit(v, 0.9);
      }
      if (probe.text.length >= 4) {
        const hits = new Set<number>();
        const direct = this.byDeletion.get(probe.text);
        if (direct) for (const v of direct) hits.add(v);
        for (const d of deletes(probe.text)) {
          const v = this.vocab.get(d);
          if (v !== undefined && d.length >= 3) hits.add(v);
          const dl = this.byDeletion.get(d);
          if (dl) for (const x of dl) hits.add(x);
        }
        if (hits.size <= 400) for (const v of hits) visit(v, 0.85);
      }
    }
    let best = 0;
    for (const id of touched) if (acc[id]! > best) best = acc[id]!;
    const out: RankedName[] = [];
    const cut = best * 0.34;
    for (const id of touched) {
      const a = acc[id]!;
      acc[id] = 0;
      stamp[id] = 0;
      if (a < cut) continue;
      const extra = this.names[id]!.weight - a;
      out.push({ name: id, rank: a - 0.25 * (extra > 0 ? extra : 0) });
    }
    out.sort((x, y) => y.rank - x.rank);
    if (out.length > CANDIDATES) out.length = CANDIDATES;
    return out;
  }

  private compare(q: ScoredPart[], entry: NameEntry): NameComparison {
    return compareParts(q, entry.parts, phoneticKey, this.idfOf, this.maxIdf);
  }

  /** Scale for names whose matched parts are common on the lists. */
  private distinctiveness(cmp: NameComparison): number {
    return Math.pow(Math.min(1, cmp.information / DISTINCTIVE_INFORMATION), 0.6);
  }

  /**
   * Score two names against each other with this index's part statistics, 0..100 (names only:
   * no corroboration). Used by the quality benchmark for judged name pairs.
   */
  scorePair(queryName: string, listedName: string, entityType?: EntityType): number {
    const q = this.queryParts(queryName, entityType);
    const c = normalizeName(listedName, isPersonFlag(entityType)).parts.map((p) => this.scored(p.text, p.kind, p.translit));
    const cmp = compareParts(q, c, phoneticKey, this.idfOf, this.maxIdf);
    let s = cmp.score * this.distinctiveness(cmp) * 100;
    if (cmp.numberConflict) s *= NUMBER_CONFLICT_FACTOR;
    return round1(s);
  }

  screen(query: MatchQuery, options: MatchOptions = {}): ScreenOutcome {
    const floor = options.floor ?? DEFAULT_FLOOR;
    const maxMatches = options.maxMatches ?? DEFAULT_MAX_MATCHES;
    const q = this.queryParts(query.name, query.entityType);
    const none: ScreenOutcome = { riskScore: 0, riskLevel: 'low', confidence: 0, matches: [] };
    if (q.length === 0) return none;
    const cands = this.candidates(q);
    // Best name per record.
    const perRecord = new Map<number, { entry: NameEntry; cmp: NameComparison; nameScore: number; dist: number }>();
    for (const c of cands) {
      const entry = this.names[c.name]!;
      const cmp = this.compare(q, entry);
      if (cmp.score <= 0) continue;
      const dist = this.distinctiveness(cmp);
      let nameScore = cmp.score * dist * 100;
      if (entry.quality === 'weak') nameScore *= WEAK_ALIAS_FACTOR;
      if (cmp.numberConflict) nameScore *= NUMBER_CONFLICT_FACTOR;
      const prev = perRecord.get(entry.record);
      if (!prev || nameScore > prev.nameScore) perRecord.set(entry.record, { entry, cmp, nameScore, dist });
    }
    interface Scored { record: number; score: number; nameScore: number; explanation: Explanation; corroborated: number; contradicted: number }
    const scored: Scored[] = [];
    for (const [r, best] of perRecord) {
      // Corroboration cannot lift a name that is far from a match over the floor on its own.
      if (best.nameScore < floor - 20) continue;
      const rec = this.records[r]!;
      const birth = birthDateEffect(query.birthDate, rec);
      const country = countryEffect(query.country, this.countries[r]!);
      const type = entityTypeEffect(query.entityType, rec.entityType);
      let score = best.nameScore;
      let corroborated = 0;
      let contradicted = 0;
      for (const e of [birth, country, type]) {
        if (!e) continue;
        score += e.effect;
        if (e.effect > 0) corroborated += e.effect;
        if (e.effect < 0) contradicted -= e.effect;
      }
      score = round1(clamp(score, 0, 100));
      if (score < floor) continue;
      scored.push({ record: r, score, nameScore: best.nameScore, corroborated, contradicted, explanation: this.explain(best.entry, best.cmp, best.dist, { birth, country, type }) });
    }
    if (scored.length === 0) return none;
    scored.sort((a, b) => b.score - a.score || b.nameScore - a.nameScore);
    const top = scored[0]!;
    const topCluster = this.clusterOf[top.record]!;
    // Several independent lists agreeing on the same party raise the risk.
    const agreeing = new Set<SourceId>();
    for (const s of scored) if (this.clusterOf[s.record] === topCluster && s.score >= MEDIUM_BOUNDARY) agreeing.add(this.records[s.record]!.source);
    const riskScore = round1(clamp(top.score + Math.min(6, 3 * (agreeing.size - 1)), 0, 100));
    const runnerUp = scored.find((s) => this.clusterOf[s.record] !== topCluster);
    let confidence = top.nameScore * 0.75 + Math.min(20, top.corroborated * 2) - top.contradicted;
    if (runnerUp) {
      const gap = top.score - runnerUp.score;
      confidence -= gap < 3 ? 15 : gap < 10 ? 8 : gap < 20 ? 3 : 0;
    }
    const matches: Match[] = [];
    if (options.groupByCluster) {
      const seen = new Set<number>();
      for (const s of scored) {
        const cl = this.clusterOf[s.record]!;
        if (seen.has(cl)) continue;
        seen.add(cl);
        const m = this.toMatch(s.record, s.score, s.explanation);
        const members = this.clusterMembers.get(cl) ?? [s.record];
        m.listings = members.map((i) => this.listing(i));
        m.clusterId = this.clusterId(cl);
        matches.push(m);
        if (matches.length >= maxMatches) break;
      }
    } else {
      for (const s of scored.slice(0, maxMatches)) {
        const m = this.toMatch(s.record, s.score, s.explanation);
        m.clusterId = this.clusterId(this.clusterOf[s.record]!);
        matches.push(m);
      }
    }
    return { riskScore, riskLevel: riskLevelFor(riskScore), confidence: round1(clamp(confidence, 0, 100)), matches };
  }

  private clusterId(cluster: number): string {
    const rec = this.records[cluster]!;
    return `${rec.source}:${rec.id}`;
  }

  private listing(i: number): Listing {
    const r = this.records[i]!;
    const l: Listing = { dataset: r.source, datasetLabel: SOURCE_LABELS[r.source], entityId: `${r.source}:${r.id}`, name: r.name, programs: r.programs };
    if (r.listingDate) l.listingDate = r.listingDate;
    return l;
  }

  private toMatch(i: number, score: number, explanation: Explanation): Match {
    const r = this.records[i]!;
    const country = r.nationalities[0] ?? r.citizenships[0] ?? r.addresses.find((a) => a.country ?? a.countryName)?.country ?? r.addresses.find((a) => a.countryName)?.countryName;
    const m: Match = {
      dataset: r.source,
      datasetLabel: SOURCE_LABELS[r.source],
      matchScore: score,
      entity: { id: `${r.source}:${r.id}`, name: r.name, entityType: r.entityType, programs: r.programs },
      explanation,
    };
    if (country) m.entity.country = country;
    if (r.listingDate) m.entity.listingDate = r.listingDate;
    if (r.reason) m.entity.reason = r.reason;
    if (r.derivation) m.entity.derivation = r.derivation;
    return m;
  }

  private explain(entry: NameEntry, cmp: NameComparison, dist: number, effects: { birth?: CorroborationEffect; country?: CorroborationEffect; type?: CorroborationEffect }): Explanation {
    const corroboration: Explanation['corroboration'] = {};
    if (effects.birth) corroboration.birthDate = effects.birth;
    if (effects.country) corroboration.country = effects.country;
    if (effects.type) corroboration.entityType = effects.type;
    if (cmp.numberConflict) corroboration.numbers = { effect: 0, detail: 'numbers in the names differ (score scaled down)' };
    const aligned = cmp.alignment.map((a) => (a.how === 'exact' ? a.listed : `${a.query}~${a.listed} (${a.how})`));
    const bits: string[] = [];
    bits.push(`Matched ${entry.kind === 'primary' ? 'the primary name' : `${entry.quality === 'weak' ? 'a weak ' : 'an '}${entry.kind === 'aka' ? 'alias' : entry.kind + ' name'}`} "${entry.name}"`);
    bits.push(`on ${aligned.join(', ') || 'no parts'}`);
    if (cmp.unmatchedQuery.length) bits.push(`; query parts not found: ${cmp.unmatchedQuery.join(', ')}`);
    if (cmp.unmatchedListed.length) bits.push(`; listed parts not in the query: ${cmp.unmatchedListed.join(', ')}`);
    if (dist < 0.999) bits.push(`; common name parts, score scaled by ${Math.round(dist * 100)}%`);
    for (const e of [effects.birth, effects.country, effects.type]) if (e && e.effect !== 0) bits.push(`; ${e.detail} (${e.effect > 0 ? '+' : ''}${e.effect})`);
    return {
      matchedName: entry.name,
      nameKind: entry.kind,
      nameQuality: entry.quality,
      nameScore: round1(cmp.score * 100),
      distinctiveness: Math.round(dist * 100) / 100,
      alignment: cmp.alignment,
      unmatchedQueryParts: cmp.unmatchedQuery,
      unmatchedListedParts: cmp.unmatchedListed,
      corroboration,
      summary: bits.join(' ').replace(/ ;/g, ';') + '.',
    };
  }
}

function push(map: Map<string, number[]>, key: string, v: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [v]);
  else if (list[list.length - 1] !== v) list.push(v);
}
