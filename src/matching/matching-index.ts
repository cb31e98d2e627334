/**
 * The matching index: every name of every record, split into parts, with a vocabulary of parts,
 * posting lists, a phonetic-key index and a one-deletion neighbourhood index (SymSpell-style)
 * for typos. A query collects candidates through them, ranks candidates by the weight of the
 * query parts they share, and fully scores a bounded number of them.
 */
import {
  SOURCE_LABELS,
  type EntityType,
  type ListRecord,
  type NameKind,
  type NameQuality,
  type SourceId,
} from '../lists/model.js';
import { birthDateEffect, countryEffect, entityTypeEffect, recordCountries } from './corroboration.js';
import { clusterSteps } from './clusters.js';
import { isCommonName } from './common-names.js';
import { QueryParts, alignmentOf, compareParts, type NameComparison, type ScoredPart } from './name-compare.js';
import {
  isHonorific,
  isLegalWord,
  isParticle,
  isPatronymicForm,
  legalSlip,
  normalizeName,
  type NamePart,
} from './normalize.js';
import { levenshtein, phoneticKey, spellingFold, withinOneSlip } from './similarity.js';
import { withArticle } from './wording.js';
import type {
  CorroborationEffect,
  Explanation,
  Listing,
  Match,
  MatchOptions,
  MatchQuery,
  RiskLevel,
  ScreenOutcome,
} from './types.js';

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
/**
 * Numbers that do not agree beside names that do ("Fund VII" / "Fund VIII", "Victory" / "Victory 3"):
 * another member of a numbered series, worth a review but never high on the name alone. (A name
 * whose only distinctive part is its number, "11420 Corp", matches on the number itself.)
 */
const NUMBER_CONFLICT_FACTOR = 0.85;
const NUMBER_CONFLICT_CAP = HIGH_BOUNDARY - 0.1;
/** A word the lists hold more often than this is a name part, never read as a legal form with a slip. */
const LEGAL_SLIP_MAX_DF = 3;
/** Weight cap (nats) of a name part common in the population (common-names.ts): about 1 record in 60. */
const COMMON_NAME_IDF = 3.5;
/** Listed names carrying a part above which its fuzzy neighbourhood is not searched. */
const COMMON_POSTINGS = 1500;
/** Weight of a number part in candidate ranking, as a share of the rarest word's. */
const NUMBER_WEIGHT = 0.8;
const DIGIT = /\d/;
/**
 * Share of a listed part's weight beyond the information of the fuzzy way that reached it (see
 * channelIdf) that still counts in ranking candidates: among a typo's neighbours the rarer one is
 * still the better lead, but none is worth more than the ambiguity of the way allows.
 */
const CHANNEL_EXCESS = 0.3;
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
  /** The record is not a person (names are compared as organizations'). */
  organization: boolean;
}

interface RankedName {
  name: number;
  rank: number;
  /** Order in which the name was first reached, the tie-break. */
  seq: number;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/** FNV-1a over a string with the character at `skip` left out (-1: none); 32-bit. */
function hashWithout(t: string, skip: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < t.length; i++) {
    if (i === skip) continue;
    h ^= t.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Hashes of the one-deletion neighbourhood of a token (consecutive repeats removed, as "ll" gives one deletion). */
function deletionHashes(t: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < t.length; i++) {
    if (i > 0 && t.charCodeAt(i) === t.charCodeAt(i - 1)) continue;
    out.push(hashWithout(t, i));
  }
  return out;
}

/** Deletion neighbourhood index: 2^DELETION_BITS hash buckets in CSR form. */
const DELETION_BITS = 18;
/** Whole-token index (a token by its hash, to find `t` less one letter without building the string): 2^TOKEN_BITS buckets. */
const TOKEN_BITS = 17;

/** `token` is `t` with the character at `skip` left out. */
function equalsWithout(token: string, t: string, skip: number): boolean {
  if (token.length !== t.length - 1) return false;
  for (let i = 0, k = 0; i < t.length; i++) {
    if (i === skip) continue;
    if (token.charCodeAt(k++) !== t.charCodeAt(i)) return false;
  }
  return true;
}

function isPersonFlag(t: EntityType | undefined): boolean | undefined {
  return t === undefined ? undefined : t === 'person';
}

const ARTICLE_START = /^(al|el)[a-z]/;

/** How often (in items) the build generator offers the event loop a turn. */
const BUILD_STEP = 64;

export class MatchingIndex {
  readonly size: number;
  readonly sources: SourceId[];
  private readonly records: ListRecord[];
  private countries: string[][] = [];
  private clusterOf: Int32Array = new Int32Array(0);
  private clusterMembers = new Map<number, number[]>();
  private readonly names: NameEntry[] = [];
  private readonly vocab = new Map<string, number>();
  private readonly vocabTokens: string[] = [];
  /** Names per vocabulary entry while building; packed into postStart/postIds when the build ends. */
  private postings: number[][] = [];
  private postStart: Uint32Array = new Uint32Array(1);
  private postIds: Int32Array = new Int32Array(0);
  private readonly vocabIdf: number[] = [];
  private readonly vocabLen: number[] = [];
  private readonly byPhonetic = new Map<string, number[]>();
  private readonly byFold = new Map<string, number[]>();
  /** Deletion index: bucket offsets, then (hash, vocab id) pairs grouped by bucket. */
  private delStart: Uint32Array = new Uint32Array(0);
  private delHash: Uint32Array = new Uint32Array(0);
  private delVocab: Int32Array = new Int32Array(0);
  /** Whole-token index: bucket offsets, then vocab ids grouped by bucket. */
  private tokenStart: Uint32Array = new Uint32Array(0);
  private tokenVocab: Int32Array = new Int32Array(0);
  private readonly df = new Map<string, number>();
  /** Listed parts by kind, transliteration and text, while building (see interned()). */
  private parts = new Map<string, ScoredPart>();
  private readonly maxIdf: number;
  private readonly pkCache = new Map<string, string>();
  private readonly foldCache = new Map<string, string>();
  // Scratch buffers reused by every query (queries are synchronous).
  /**
   * Per name, side by side in one buffer of 16 bytes a name (one cache line per visit, for thousands
   * of names a query): the rank accumulated by the current query (acc[4 * name], float32), the last
   * probe that reached the name (stamp[4 * name + 1]) and the name's weight (nameWeight[2 * name + 1],
   * the sum of its word weights, to prefer candidates whose weight the query covers).
   */
  private acc: Float32Array = new Float32Array(0);
  private stamp: Int32Array = new Int32Array(0);
  private nameWeight: Float64Array = new Float64Array(0);
  /** The last probe that visited each vocabulary entry's names. */
  private vocabStamp: Int32Array = new Int32Array(0);
  /** The names the current query reached, in the order it reached them. */
  private touched: Int32Array = new Int32Array(0);
  /** The candidate heap of the current query: rank, order reached, name. */
  private readonly hRank = new Float64Array(CANDIDATES);
  private readonly hSeq = new Int32Array(CANDIDATES);
  private readonly hId = new Int32Array(CANDIDATES);
  /** The vocabulary entries one fuzzy way of a probe reaches (at most 400). */
  private readonly reachable = new Int32Array(400);
  private stampCounter = 0;

  private constructor(records: ListRecord[]) {
    this.records = records;
    this.size = records.length;
    this.sources = [...new Set(records.map((r) => r.source))];
    this.maxIdf = Math.log((records.length + IDF_PRIOR) / 1);
  }

  /**
   * The whole build as a generator that yields every few items, so that build() can run it to the
   * end at once and buildAsync() can hand the event loop a turn between steps: one code path,
   * one result.
   */
  private *populate(): Generator<void, void, void> {
    const records = this.records;
    for (let r = 0; r < records.length; r++) {
      this.countries.push(recordCountries(records[r]!));
      if (r % (BUILD_STEP * 4) === 0) yield;
    }
    const normalized: { record: number; name: string; kind: NameKind; quality: NameQuality; parts: NamePart[] }[] = [];
    const primaryKeys: (NamePart[] | undefined)[] = [];
    for (let r = 0; r < records.length; r++) {
      const rec = records[r]!;
      const person = rec.entityType === 'person';
      const seen = new Set<string>();
      const first = normalized.length;
      const add = (name: string, kind: NameKind, quality: NameQuality): void => {
        const n = normalizeName(name, person);
        if (kind === 'primary') primaryKeys.push(n.parts);
        if (n.parts.length === 0 || seen.has(n.key)) return;
        seen.add(n.key);
        normalized.push({ record: r, name, kind, quality, parts: n.parts });
      };
      add(rec.name, 'primary', 'strong');
      for (const a of rec.aliases) add(a.name, a.kind, a.quality);
      // Document frequency per record, not per alias, so that a name repeated in ten aliases of
      // one entry does not look common.
      const tokens = new Set<string>();
      for (let i = first; i < normalized.length; i++) {
        for (const p of normalized[i]!.parts) if (p.kind === 'word' || p.kind === 'patronymic') tokens.add(p.text);
      }
      for (const t of tokens) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      if (r % BUILD_STEP === 0) yield;
    }
    for (let k = 0; k < normalized.length; k++) {
      const n = normalized[k]!;
      const parts = n.parts.map((p) => this.interned(p));
      let weight = 0;
      for (const p of parts) if (p.kind === 'word') weight += p.idf;
      const id = this.names.length;
      this.names.push({
        record: n.record,
        name: n.name,
        kind: n.kind,
        quality: n.quality,
        parts,
        weight,
        organization: records[n.record]!.entityType !== 'person',
      });
      const words = parts.filter((p) => p.kind === 'word' || p.kind === 'patronymic');
      for (const p of words) this.post(p.text, p.idf, id);
      for (let i = 0; i + 1 < words.length; i++) {
        const j = words[i]!.text + words[i + 1]!.text;
        this.post(j, Math.max(words[i]!.idf, words[i + 1]!.idf), id);
      }
      // Numbers tell apart the members of a numbered series ("FU YUAN YU 7629" among hundreds).
      for (const p of parts) if (p.kind === 'number') this.post(p.text, this.maxIdf * NUMBER_WEIGHT, id);
      if (k % (BUILD_STEP * 4) === 0) yield;
    }
    normalized.length = 0;
    this.parts.clear();
    // Phonetic keys, and the deletion neighbourhood counted per bucket (first pass of a counting sort).
    const buckets = 1 << DELETION_BITS;
    const shift = 32 - DELETION_BITS;
    const start = new Uint32Array(buckets + 1);
    const tokens = this.vocabTokens;
    for (let v = 0; v < tokens.length; v++) {
      const token = tokens[v]!;
      if (DIGIT.test(token)) continue;
      const pk = this.pk(token);
      if (pk.length >= 2) push(this.byPhonetic, pk, v);
      if (token.length >= 3) {
        const f = this.fold(token);
        if (f !== token) push(this.byFold, f, v);
      }
      if (token.length >= 4) for (const h of deletionHashes(token)) start[(h >>> shift) + 1]!++;
      if (v % (BUILD_STEP * 8) === 0) yield;
    }
    this.pkCache.clear();
    this.foldCache.clear();
    for (let b = 0; b < buckets; b++) start[b + 1]! += start[b]!;
    const total = start[buckets]!;
    const fill = start.slice(0, buckets);
    const delHash = new Uint32Array(total);
    const delVocab = new Int32Array(total);
    yield;
    for (let v = 0; v < tokens.length; v++) {
      const token = tokens[v]!;
      if (token.length < 4 || DIGIT.test(token)) continue;
      for (const h of deletionHashes(token)) {
        const at = fill[h >>> shift]!++;
        delHash[at] = h;
        delVocab[at] = v;
      }
      if (v % (BUILD_STEP * 8) === 0) yield;
    }
    // Every token by the hash of its whole text (counting sort into buckets again).
    const tokenShift = 32 - TOKEN_BITS;
    const tokenStart = new Uint32Array((1 << TOKEN_BITS) + 1);
    const tokenHashes = new Uint32Array(tokens.length);
    for (let v = 0; v < tokens.length; v++) {
      tokenHashes[v] = hashWithout(tokens[v]!, -1);
      tokenStart[(tokenHashes[v]! >>> tokenShift) + 1]!++;
      if (v % (BUILD_STEP * 8) === 0) yield;
    }
    for (let b = 0; b < 1 << TOKEN_BITS; b++) tokenStart[b + 1]! += tokenStart[b]!;
    const tokenFill = tokenStart.slice(0, 1 << TOKEN_BITS);
    const tokenVocab = new Int32Array(tokens.length);
    for (let v = 0; v < tokens.length; v++) tokenVocab[tokenFill[tokenHashes[v]! >>> tokenShift]!++] = v;
    this.tokenStart = tokenStart;
    this.tokenVocab = tokenVocab;
    yield;
    this.packPostings();
    this.delStart = start;
    this.delHash = delHash;
    this.delVocab = delVocab;
    const slots = new ArrayBuffer(16 * this.names.length);
    this.acc = new Float32Array(slots);
    this.stamp = new Int32Array(slots);
    this.nameWeight = new Float64Array(slots);
    for (let i = 0; i < this.names.length; i++) this.nameWeight[2 * i + 1] = this.names[i]!.weight;
    this.touched = new Int32Array(this.names.length);
    this.vocabStamp = new Int32Array(this.vocabTokens.length);
    const clusters = yield* clusterSteps(records, this.countries, primaryKeys, BUILD_STEP * 4);
    this.clusterOf = clusters.clusterOf;
    this.clusterMembers = clusters.members;
  }

  /** Build the index at once (blocks the thread for the whole build). */
  static build(records: ListRecord[]): MatchingIndex {
    const idx = new MatchingIndex(records);
    const steps = idx.populate();
    while (!steps.next().done);
    return idx;
  }

  /**
   * The same build as build(), giving the event loop a turn (setImmediate) whenever `yieldEveryMs`
   * (default 10 ms) have passed, so that a server keeps answering while lists are re-indexed.
   */
  static async buildAsync(records: ListRecord[], options: { yieldEveryMs?: number } = {}): Promise<MatchingIndex> {
    const every = options.yieldEveryMs ?? 10;
    const idx = new MatchingIndex(records);
    const steps = idx.populate();
    let last = performance.now();
    while (!steps.next().done) {
      if (performance.now() - last >= every) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        last = performance.now();
      }
    }
    return idx;
  }

  /** Vocabulary entries (tokens) whose one-deletion neighbourhood contains the string with `h`'s hash. */
  private deletionHits(h: number, out: Set<number>): void {
    const b = h >>> (32 - DELETION_BITS);
    const end = this.delStart[b + 1]!;
    for (let i = this.delStart[b]!; i < end; i++) if (this.delHash[i] === h) out.add(this.delVocab[i]!);
  }

  /** Number of indexed names (primary names and aliases, deduplicated per record). */
  get nameCount(): number {
    return this.names.length;
  }

  private fold(text: string): string {
    let f = this.foldCache.get(text);
    if (f === undefined) {
      f = spellingFold(text);
      if (this.foldCache.size < 200_000) this.foldCache.set(text, f);
    }
    return f;
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
    const common = isCommonName(text);
    if (df === undefined) return common ? COMMON_NAME_IDF : undefined;
    const idf = Math.log((this.size + IDF_PRIOR) / (df + 1));
    return common && idf > COMMON_NAME_IDF ? COMMON_NAME_IDF : idf;
  };

  /**
   * The one shared ScoredPart of a listed part: names share their parts' objects, which keeps the
   * index small and lets a query remember how it compared with a part (QueryParts.similarity).
   */
  private interned(p: NamePart): ScoredPart {
    const key = `${p.kind}|${p.translit ?? ''}|${p.text}`;
    let part = this.parts.get(key);
    if (part === undefined) {
      part = this.scored(p.text, p.kind, p.translit);
      this.parts.set(key, part);
    }
    return part;
  }

  private scored(text: string, kind: NamePart['kind'], translit?: NamePart['translit']): ScoredPart {
    const idf = kind === 'word' || kind === 'patronymic' ? (this.idfOf(text) ?? this.maxIdf) : 0;
    const p: ScoredPart = { text, kind, pk: kind === 'word' || kind === 'patronymic' ? this.pk(text) : '', idf };
    if (translit) p.translit = translit;
    if (kind === 'word' || kind === 'patronymic') p.fold = this.fold(text);
    return p;
  }

  private post(token: string, idf: number, nameId: number): void {
    let v = this.vocab.get(token);
    if (v === undefined) {
      v = this.postings.length;
      this.vocab.set(token, v);
      this.postings.push([]);
      this.vocabTokens.push(token);
      this.vocabIdf.push(idf);
      this.vocabLen.push(token.length);
    }
    const list = this.postings[v]!;
    if (list[list.length - 1] !== nameId) list.push(nameId);
  }

  /** One flat array of name ids, vocabulary entry after entry: compact, and read in order by queries. */
  private packPostings(): void {
    const start = new Uint32Array(this.postings.length + 1);
    for (let v = 0; v < this.postings.length; v++) start[v + 1] = start[v]! + this.postings[v]!.length;
    const ids = new Int32Array(start[this.postings.length]!);
    for (let v = 0; v < this.postings.length; v++) ids.set(this.postings[v]!, start[v]!);
    this.postStart = start;
    this.postIds = ids;
    this.postings = [];
  }

  private postingCount(v: number): number {
    return this.postStart[v + 1]! - this.postStart[v]!;
  }

  /** `listed`: the parts of the one listed name a pair check compares with, known to the lists for the occasion. */
  private queryParts(name: string, type: EntityType | undefined, listed?: NamePart[]): ScoredPart[] {
    const person = isPersonFlag(type);
    const parts: NamePart[] = [];
    for (const p of normalizeName(name, person).parts) {
      // (A given name glued to a patronymic reads as a patronymic: Andreikonstantinovich.)
      const split = p.kind === 'word' || p.kind === 'patronymic' ? this.splitGlued(p.text, person, listed) : undefined;
      if (split) for (const x of split) parts.push(p.translit ? { ...x, translit: p.translit } : x);
      else parts.push(p);
    }
    // An abbreviated legal form with a slip, first or last in a name that is not a person's, is a
    // legal form unless the lists hold the word as a name part ("SOLINVEST LD", "LzLC ALFA"): they
    // hold such slips themselves a few times (LD, LC, LMTD), name parts more often (OO, TOM).
    if (person !== true && parts.length >= 2) {
      for (const i of [0, parts.length - 1]) {
        const p = parts[i]!;
        if (
          p.kind !== 'word' ||
          p.translit !== undefined ||
          (this.df.get(p.text) ?? 0) > LEGAL_SLIP_MAX_DF ||
          listed?.some((l) => l.text === p.text)
        )
          continue;
        const form = legalSlip(p.text, i === 0);
        // (Never the name's last word part: "LD LC" stays a name.)
        if (form !== undefined && parts.some((o, j) => j !== i && o.kind === 'word'))
          parts[i] = { text: form, kind: 'legal' };
      }
    }
    return parts.slice(0, 16).map((p) => this.scored(p.text, p.kind, p.translit));
  }

  /**
   * A query part unknown to the lists that is two listed parts glued together ("FORENINGENal",
   * "KYAWmaung", "DOOnovi") is read as those two parts; each side must be a listed part, a
   * particle or a legal form, and at least one a listed part of four letters or more.
   */
  private splitGlued(t: string, person: boolean | undefined, listed?: NamePart[]): NamePart[] | undefined {
    if (t.length < 6) return undefined;
    // Two parts a listed name has side by side are in the vocabulary as one token too (to find
    // candidates by), and are left whole: the comparison pairs them with the two listed parts. A given
    // name glued to a patronymic is split all the same, where the listed name splits it
    // ("Andreikonstantinovich"): read whole, it would weigh as a patronymic.
    if (this.vocab.has(t)) return !this.df.has(t) && isPatronymicForm(t) ? this.splitListedPair(t) : undefined;
    // A spelling variant of a listed part is not a glued pair ("mokhamed" is not "mok hamed")...
    const f = this.fold(t);
    if (this.vocab.has(f) || this.byFold.has(f)) return undefined;
    // ...nor, as two words, is a listed part with one slip in it ("Macrosoft" / "Microsoft",
    // "UnitedWealth" / "UnitedHealth"); a legal form glued to a listed part still comes off.
    let near: boolean | undefined;
    const isNear = (): boolean => (near ??= this.nearListed(t, false, listed));
    // A short legal form is the end (or start) of many a word with a slip in it (Ivnest / Invest is not
    // Ivn Est, Tatinna / Tatiana not Tat Inna); a listed part one letter shorter does not count here,
    // the letter more may be the legal form's (JSCrawenstvo / Scrawenstvo).
    let nearLegal: boolean | undefined;
    const isNearLegal = (): boolean => (nearLegal ??= this.nearListed(t, true, listed));
    for (let i = 2; i <= t.length - 2; i++) {
      const l = t.slice(0, i);
      const r = t.slice(i);
      const lKnown = l.length >= 4 && this.df.has(l);
      const rKnown = r.length >= 4 && this.df.has(r);
      // A legal form glued to the end of an organization's name needs no listed partner ("SiemensAG").
      const legalEnd = isLegalWord(r) && l.length >= 3 && (r.length >= 3 || person === false);
      // ...and one glued to its front needs a listed remainder ("JSCrawenstvo", "COMPANYlex").
      const legalStart = isLegalWord(l) && l.length >= 3 && r.length >= 2 && this.df.has(r);
      if (!legalEnd && !legalStart) {
        if (!lKnown && !rKnown) continue;
        if (
          !(lKnown || isParticle(l) || isHonorific(l)) ||
          !(rKnown || isParticle(r) || isLegalWord(r) || isHonorific(r))
        )
          continue;
        if (isNear()) continue;
      } else if (isNearLegal()) continue;
      const parts = normalizeName(`${l} ${r}`, person).parts;
      // One side an honorific dropped by normalization ("Sayyedjabar").
      if (
        parts.length === 1 &&
        parts[0]!.kind === 'word' &&
        ((lKnown && parts[0]!.text === l) || (rKnown && parts[0]!.text === r))
      )
        return parts;
      if (parts.length === 2) return parts;
    }
    // The Arabic article written onto its word with a slip where the hyphen was ("ALkMATAR", "ALwHAMZI"):
    // the article and the listed word after the stray letter.
    if (t.length >= 7 && ARTICLE_START.test(t) && this.df.has(t.slice(3)) && !isNear())
      return [
        { text: t.slice(0, 2), kind: 'particle' },
        { text: t.slice(3), kind: 'word' },
      ];
    return undefined;
  }

  /** `t` read as a listed given name and a listed patronymic. */
  private splitListedPair(t: string): NamePart[] | undefined {
    for (let i = 2; i <= t.length - 2; i++) {
      const l = t.slice(0, i);
      const r = t.slice(i);
      if (this.df.has(l) && this.df.has(r) && isPatronymicForm(r) && !isParticle(l) && !isHonorific(l))
        return [
          { text: l, kind: 'word' },
          { text: r, kind: 'patronymic' },
        ];
    }
    return undefined;
  }

  /**
   * A listed part that is `t` less one letter, or one of six letters or more one slip away (a word of
   * `listed` too, the one listed name of a pair check); with `sameOrLonger`, only parts as long as `t`
   * or longer.
   */
  private nearListed(t: string, sameOrLonger: boolean, listed?: NamePart[]): boolean {
    for (const v of this.oneEditNeighbours(t)) {
      const other = this.vocabTokens[v]!;
      if (sameOrLonger && other.length < t.length) continue;
      if (other.length === t.length - 1 && levenshtein(other, t, 1) <= 1) return true;
      if (other.length >= 6 && withinOneSlip(other, t)) return true;
    }
    return (
      listed?.some(
        (p) =>
          p.kind === 'word' &&
          p.text.length >= 6 &&
          (!sameOrLonger || p.text.length >= t.length) &&
          withinOneSlip(p.text, t),
      ) ?? false
    );
  }

  /**
   * Vocabulary entries that may be one edit away from `t`: one letter longer, one shorter, or one
   * letter substituted or two swapped. Deletion-hash hits are candidates, not yet checked.
   */
  private oneEditNeighbours(t: string): Set<number> {
    const hits = new Set<number>();
    // A listed token one letter longer than t.
    this.deletionHits(hashWithout(t, -1), hits);
    for (let i = 0; i < t.length; i++) {
      if (i > 0 && t.charCodeAt(i) === t.charCodeAt(i - 1)) continue;
      const h = hashWithout(t, i);
      // One letter shorter: the deletion itself is listed...
      const b = h >>> (32 - TOKEN_BITS);
      const end = this.tokenStart[b + 1]!;
      for (let k = this.tokenStart[b]!; k < end; k++) {
        const v = this.tokenVocab[k]!;
        if (equalsWithout(this.vocabTokens[v]!, t, i)) {
          hits.add(v);
          break;
        }
      }
      // ...or both lost one letter (a substitution or a swap).
      this.deletionHits(h, hits);
    }
    return hits;
  }

  /** Candidate names for the query parts, best first. */
  private candidates(q: ScoredPart[]): RankedName[] {
    const touched = this.touched;
    let reached = 0;
    const acc = this.acc;
    const stamp = this.stamp;
    const nameWeight = this.nameWeight;
    const words = q.filter((p) => p.kind === 'word' || p.kind === 'patronymic');
    const probes: { text: string; pk: string; fold?: string; idf: number; fuzzy: boolean }[] = words.map((p) => ({
      text: p.text,
      pk: p.pk,
      fold: p.fold,
      idf: p.idf,
      fuzzy: true,
    }));
    for (const p of q)
      if (p.kind === 'number') probes.push({ text: p.text, pk: '', idf: this.maxIdf * NUMBER_WEIGHT, fuzzy: false });
    for (let i = 0; i + 1 < words.length; i++) {
      // Joined query parts are looked up exactly only: the fuzzy neighbourhood of every pair costs too much.
      probes.push({
        text: words[i]!.text + words[i + 1]!.text,
        pk: '',
        idf: Math.max(words[i]!.idf, words[i + 1]!.idf),
        fuzzy: false,
      });
    }
    const postStart = this.postStart;
    const postIds = this.postIds;
    const reachable = this.reachable;
    const vocabStamp = this.vocabStamp;
    for (const probe of probes) {
      const s = ++this.stampCounter;
      // A visit weighs the listed part's weight, at most the probe's; through a fuzzy way of reaching
      // parts, what the part weighs beyond the information of all the parts that way reaches together
      // (see channelIdf) counts for little.
      let channel = Infinity;
      const visit = (v: number, quality: number): void => {
        // A part reached again by another way of the same probe (one slip and the same skeleton)
        // reaches the same names, which count once per probe: nothing to do.
        if (vocabStamp[v] === s) return;
        vocabStamp[v] = s;
        let x = this.vocabIdf[v]!;
        if (x > channel) x = channel + CHANNEL_EXCESS * (x - channel);
        const w = (x < probe.idf ? x : probe.idf) * quality;
        const end = postStart[v + 1]!;
        for (let k = postStart[v]!; k < end; k++) {
          const id = postIds[k]!;
          const at = 4 * id;
          if (stamp[at + 1] === s) continue;
          stamp[at + 1] = s;
          const a = acc[at]!;
          if (a === 0) touched[reached++] = id;
          acc[at] = a + w;
        }
      };
      const exact = this.vocab.get(probe.text);
      if (exact !== undefined) visit(exact, 1);
      if (!probe.fuzzy) continue;
      // A part carried by very many listed names (Mohamed, Ali) brings its spelling variants'
      // thousands of names too, for little evidence: only its exact and same-spelling forms are used.
      const common = exact !== undefined && this.postingCount(exact) > COMMON_POSTINGS;
      if (probe.fold !== undefined) {
        let f = this.byFold.get(probe.fold);
        if (f && f.length > 400) f = undefined;
        const same = probe.fold !== probe.text ? this.vocab.get(probe.fold) : undefined;
        channel = this.channelIdf(f ?? [], f?.length ?? 0, same);
        if (f) for (const v of f) visit(v, 0.95);
        if (same !== undefined) visit(same, 0.95);
      }
      if (common) continue;
      // One slip before a shared skeleton: a name reached both ways is visited once, by the first,
      // and one slip is the closer relation.
      if (probe.text.length >= 4) {
        const hits = this.oneEditNeighbours(probe.text);
        if (hits.size <= 400) {
          let n = 0;
          for (const v of hits) reachable[n++] = v;
          channel = this.channelIdf(reachable, n);
          for (let k = 0; k < n; k++) visit(reachable[k]!, 0.85);
        }
      }
      if (probe.pk.length >= 2) {
        const ph = this.byPhonetic.get(probe.pk);
        const len = probe.text.length;
        // Same skeleton and a similar length: spelling variants, not every word with those consonants.
        if (ph && ph.length <= 400) {
          let n = 0;
          for (const v of ph) if (Math.abs(this.vocabLen[v]! - len) <= 2) reachable[n++] = v;
          channel = this.channelIdf(reachable, n);
          for (let k = 0; k < n; k++) visit(reachable[k]!, 0.9);
        }
      }
    }
    let best = 0;
    for (let k = 0; k < reached; k++) {
      const a = acc[4 * touched[k]!]!;
      if (a > best) best = a;
    }
    const cut = best * 0.34;
    // The best CANDIDATES names by rank, kept in a min-heap (the weakest on top); on equal ranks the
    // name touched first wins, as a stable sort would have it.
    const { hRank, hSeq, hId } = this;
    let size = 0;
    const weaker = (i: number, j: number): boolean =>
      hRank[i]! < hRank[j]! || (hRank[i] === hRank[j] && hSeq[i]! > hSeq[j]!);
    const swap = (i: number, j: number): void => {
      const r = hRank[i]!,
        q = hSeq[i]!,
        d = hId[i]!;
      hRank[i] = hRank[j]!;
      hSeq[i] = hSeq[j]!;
      hId[i] = hId[j]!;
      hRank[j] = r;
      hSeq[j] = q;
      hId[j] = d;
    };
    const down = (i: number): void => {
      for (;;) {
        const l = 2 * i + 1,
          r = l + 1;
        let m = i;
        if (l < size && weaker(l, m)) m = l;
        if (r < size && weaker(r, m)) m = r;
        if (m === i) return;
        swap(i, m);
        i = m;
      }
    };
    for (let seq = 0; seq < reached; seq++) {
      const id = touched[seq]!;
      const a = acc[4 * id]!;
      acc[4 * id] = 0;
      stamp[4 * id + 1] = 0;
      if (a < cut) continue;
      const extra = nameWeight[2 * id + 1]! - a;
      const rank = a - 0.25 * (extra > 0 ? extra : 0);
      if (size < CANDIDATES) {
        let i = size++;
        hRank[i] = rank;
        hSeq[i] = seq;
        hId[i] = id;
        while (i > 0) {
          const p = (i - 1) >> 1;
          if (!weaker(i, p)) break;
          swap(i, p);
          i = p;
        }
      } else if (rank > hRank[0]!) {
        hRank[0] = rank;
        hSeq[0] = seq;
        hId[0] = id;
        down(0);
      }
    }
    const out: RankedName[] = [];
    for (let i = 0; i < size; i++) out.push({ name: hId[i]!, rank: hRank[i]!, seq: hSeq[i]! });
    out.sort((x, y) => y.rank - x.rank || x.seq - y.seq);
    return out;
  }

  /**
   * The information (nats) of reaching any of `n` listed parts: -log of the sum of their shares of
   * the records. A fuzzy way of reaching parts (a phonetic skeleton, one slip) that reaches dozens of
   * them tells as little as a common part does, however rare each one is: without this a typo's
   * many rare neighbours outweighed its one right, common partner (Faysial: Fazeli over Faysal).
   */
  private channelIdf(members: ArrayLike<number>, n: number, extra?: number): number {
    let p = extra === undefined ? 0 : Math.exp(-this.vocabIdf[extra]!);
    for (let k = 0; k < n; k++) p += Math.exp(-this.vocabIdf[members[k]!]!);
    return p > 0 ? Math.max(0, -Math.log(p)) : this.maxIdf;
  }

  /** undefined: the name cannot score `atLeast` (see compareParts). */
  private compare(q: QueryParts, entry: NameEntry, atLeast: number): NameComparison | undefined {
    return compareParts(q, entry.parts, entry.organization, atLeast);
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
    const listed = normalizeName(listedName, isPersonFlag(entityType)).parts;
    const q = new QueryParts(this.queryParts(queryName, entityType, listed), this.idfOf, this.maxIdf);
    const c = listed.map((p) => this.scored(p.text, p.kind, p.translit));
    const cmp = compareParts(q, c, entityType !== undefined && entityType !== 'person');
    let s = cmp.score * this.distinctiveness(cmp) * 100;
    if (cmp.numberConflict) s = Math.min(s * NUMBER_CONFLICT_FACTOR, NUMBER_CONFLICT_CAP);
    return round1(s);
  }

  screen(query: MatchQuery, options: MatchOptions = {}): ScreenOutcome {
    const floor = options.floor ?? DEFAULT_FLOOR;
    const maxMatches = options.maxMatches ?? DEFAULT_MAX_MATCHES;
    const q = this.queryParts(query.name, query.entityType);
    const none: ScreenOutcome = { riskScore: 0, riskLevel: 'low', confidence: 0, matches: [] };
    if (q.length === 0) return none;
    const cands = this.candidates(q);
    const query_ = new QueryParts(q, this.idfOf, this.maxIdf);
    // Best name per record.
    const perRecord = new Map<number, { entry: NameEntry; cmp: NameComparison; nameScore: number; dist: number }>();
    for (const c of cands) {
      const entry = this.names[c.name]!;
      // A record whose best name scores under floor - 20 is left out below: such names need no alignment.
      const cmp = this.compare(query_, entry, floor - 20);
      if (!cmp || cmp.score <= 0) continue;
      const dist = this.distinctiveness(cmp);
      let nameScore = cmp.score * dist * 100;
      if (entry.quality === 'weak') nameScore *= WEAK_ALIAS_FACTOR;
      if (cmp.numberConflict) nameScore = Math.min(nameScore * NUMBER_CONFLICT_FACTOR, NUMBER_CONFLICT_CAP);
      const prev = perRecord.get(entry.record);
      if (!prev || nameScore > prev.nameScore) perRecord.set(entry.record, { entry, cmp, nameScore, dist });
    }
    interface Scored {
      record: number;
      score: number;
      nameScore: number;
      dist: number;
      key: string;
      explanation: Explanation;
      corroborated: number;
      contradicted: number;
    }
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
      scored.push({
        record: r,
        score,
        nameScore: best.nameScore,
        dist: best.dist,
        key: best.entry.parts
          .map((p) => p.text)
          .sort()
          .join(' '),
        corroborated,
        contradicted,
        explanation: this.explain(best.entry, best.cmp, best.dist, { birth, country, type }),
      });
    }
    if (scored.length === 0) return none;
    // Lists carrying each party (cluster) at medium or above: several independent lists agreeing on
    // the same party raise the risk.
    const listsOf = new Map<number, Set<SourceId>>();
    for (const s of scored) {
      if (s.score < MEDIUM_BOUNDARY) continue;
      const cl = this.clusterOf[s.record]!;
      let set = listsOf.get(cl);
      if (!set) listsOf.set(cl, (set = new Set()));
      set.add(this.records[s.record]!.source);
    }
    const lists = (s: Scored): number => listsOf.get(this.clusterOf[s.record]!)?.size ?? 0;
    // Equal scores: the row whose birth date, country... agree first (a row that lists no birth date
    // cannot confirm one, and must not stand before one that does), then the fewer contradictions,
    // then the party more lists carry, then the closer name. The top row sets the risk, so among
    // equals the best corroborated match does.
    scored.sort(
      (a, b) =>
        b.score - a.score ||
        b.corroborated - a.corroborated ||
        a.contradicted - b.contradicted ||
        lists(b) - lists(a) ||
        b.nameScore - a.nameScore,
    );
    // The risk is that of the riskiest party: its best row, raised for the further lists carrying it.
    // A party whose rows several lists carry (and whose birth date agrees) can so outweigh one row a
    // little above it that no other list confirms; its best row then leads the matches.
    const raised = (s: Scored): number => s.score + Math.min(6, 3 * (Math.max(1, lists(s)) - 1));
    let top = scored[0]!;
    const parties = new Set<number>();
    for (const s of scored) {
      const cl = this.clusterOf[s.record]!;
      if (parties.has(cl)) continue;
      parties.add(cl);
      if (raised(s) > raised(top)) top = s;
    }
    if (top !== scored[0]) {
      scored.splice(scored.indexOf(top), 1);
      scored.unshift(top);
    }
    const topCluster = this.clusterOf[top.record]!;
    const agreeing = new Set<SourceId>(listsOf.get(topCluster));
    if (agreeing.size === 0) agreeing.add(this.records[top.record]!.source);
    const riskScore = round1(clamp(top.score + Math.min(6, 3 * (agreeing.size - 1)), 0, 100));
    // The runner-up is the best other party. A row of another list under the very same distinctive
    // name, which clustering could not link for want of a shared identifier or date, is not one.
    const sameParty = (s: Scored): boolean =>
      this.clusterOf[s.record] === topCluster ||
      (top.dist >= 0.95 &&
        s.key === top.key &&
        this.records[s.record]!.source !== this.records[top.record]!.source &&
        s.contradicted === 0);
    const runnerUp = scored.find((s) => !sameParty(s));
    for (const s of scored)
      if (s.score >= MEDIUM_BOUNDARY && sameParty(s)) agreeing.add(this.records[s.record]!.source);
    // Confidence that the top match is the same party (DECISIONS.md "Scores and levels"):
    //   0.85 x the name score x (0.5 + 0.5 x distinctiveness): common name parts count twice, once in
    //   the name score and once here, so a bare "Mohammad Ali" starts low
    //   + 5 for each further independent list carrying the same party, at most +15
    //   and, without any corroborating field, no more than 85: a name alone never makes it certain;
    //   + 2 x the corroborating points (birth date +10, country +4...), at most +20
    //   - the contradicting points
    //   - 15 / 8 / 3 when the best other party is within 3 / 10 / 20 points (an ambiguous name).
    // An exact distinctive full name on six lists with no other field: 85; with birth date and country
    // agreeing: 100; a bare common name sharing its score with other parties: about 30.
    let confidence = Math.min(
      85,
      top.nameScore * 0.85 * (0.5 + 0.5 * top.dist) + Math.min(15, 5 * (agreeing.size - 1)),
    );
    confidence += Math.min(20, top.corroborated * 2) - top.contradicted;
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
    const l: Listing = {
      dataset: r.source,
      datasetLabel: SOURCE_LABELS[r.source],
      entityId: `${r.source}:${r.id}`,
      name: r.name,
      programs: r.programs,
    };
    if (r.listingDate) l.listingDate = r.listingDate;
    return l;
  }

  private toMatch(i: number, score: number, explanation: Explanation): Match {
    const r = this.records[i]!;
    const country =
      r.nationalities[0] ??
      r.citizenships[0] ??
      r.addresses.find((a) => a.country ?? a.countryName)?.country ??
      r.addresses.find((a) => a.countryName)?.countryName;
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

  private explain(
    entry: NameEntry,
    cmp: NameComparison,
    dist: number,
    effects: { birth?: CorroborationEffect; country?: CorroborationEffect; type?: CorroborationEffect },
  ): Explanation {
    const corroboration: Explanation['corroboration'] = {};
    if (effects.birth) corroboration.birthDate = effects.birth;
    if (effects.country) corroboration.country = effects.country;
    if (effects.type) corroboration.entityType = effects.type;
    if (cmp.numberConflict)
      corroboration.numbers = {
        effect: 0,
        detail: 'numbers in the names differ (score scaled down and kept below high)',
      };
    const alignment = alignmentOf(cmp);
    const aligned = alignment.map((a) => (a.how === 'exact' ? a.listed : `${a.query}~${a.listed} (${a.how})`));
    const bits: string[] = [];
    const kind = entry.kind === 'aka' ? 'alias' : `${entry.kind} name`;
    bits.push(
      `Matched ${entry.kind === 'primary' ? 'the primary name' : withArticle(entry.quality === 'weak' ? `weak ${kind}` : kind)} "${entry.name}"`,
    );
    bits.push(`on ${aligned.join(', ') || 'no parts'}`);
    if (cmp.unmatchedQuery.length) bits.push(`; query parts not found: ${cmp.unmatchedQuery.join(', ')}`);
    if (cmp.unmatchedListed.length) bits.push(`; listed parts not in the query: ${cmp.unmatchedListed.join(', ')}`);
    // Distinctiveness below 1: the matched parts carry little information, being common on the
    // lists or in the population, or being a single part.
    if (dist < 0.999)
      bits.push(
        `; ${alignment.length === 1 ? 'a single name part matched' : 'common name parts'}, score scaled by ${Math.round(dist * 100)}%`,
      );
    for (const e of [effects.birth, effects.country, effects.type])
      if (e && e.effect !== 0) bits.push(`; ${e.detail} (${e.effect > 0 ? '+' : ''}${e.effect})`);
    return {
      matchedName: entry.name,
      nameKind: entry.kind,
      nameQuality: entry.quality,
      nameScore: round1(cmp.score * 100),
      distinctiveness: Math.round(dist * 100) / 100,
      alignment,
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
