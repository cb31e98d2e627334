/**
 * Candidate generation: every name of every record split into parts, a vocabulary of parts with
 * their weights, posting lists, a spelling-fold index, a phonetic-key index and the one-edit
 * neighbourhood (edit-neighbours.ts). A query reaches listed names through them, exactly and by the
 * fuzzy ways (same spelling fold, one slip, same consonant skeleton), and the names are ranked by
 * the weight of the query parts they share, so that only a bounded number is compared in full.
 */
import type { ListRecord } from '../lists/index.js';
import { CandidateHeap, type RankedName } from './candidate-heap.js';
import { COMMON_NAME_IDF, isCommonName } from './common-names.js';
import { EditNeighbours } from './edit-neighbours.js';
import type { ScoredPart } from './part-similarity.js';
import {
  internKey,
  isWordLike,
  type ListedNames,
  type NameEntry,
  readListedNames,
  renderingScript,
} from './listed-names.js';
import type { NamePart } from './normalize.js';
import { phoneticKey, spellingFold } from './similarity.js';
import { SCORING } from './scoring-table.js';

/** Listed names carrying a part above which its fuzzy neighbourhood is not searched. */
const COMMON_POSTINGS = SCORING.COMMON_POSTINGS.value;
/** Weight of a number part in candidate ranking, as a share of the rarest word's. */
const NUMBER_WEIGHT = SCORING.NUMBER_WEIGHT.value;
const DIGIT = /\d/;
/**
 * Share of a listed part's weight beyond the information of the fuzzy way that reached it (see
 * channelIdf) that still counts in ranking candidates: among a typo's neighbours the rarer one is
 * still the better lead, but none is worth more than the ambiguity of the way allows.
 */
const CHANNEL_EXCESS = SCORING.CHANNEL_EXCESS.value;
/**
 * What a visit by each fuzzy way counts, as a share of an exact one: the same spelling fold is
 * nearly the same name, a shared skeleton a little less sure, one slip least (it also reaches other
 * names that differ by a letter).
 */
const FOLD_VISIT = SCORING.FOLD_VISIT.value;
const SKELETON_VISIT = SCORING.SKELETON_VISIT.value;
const SLIP_VISIT = SCORING.SLIP_VISIT.value;
/** A fuzzy way reaching more listed parts than this says too little to follow. */
const MAX_REACHED = SCORING.MAX_REACHED.value;
/** A shared skeleton counts only between parts whose lengths differ by this much at most. */
const SKELETON_LENGTH_SLACK = SCORING.SKELETON_LENGTH_SLACK.value;
/** Marks of the probes of one query (mark is a Uint8Array); a query with more probes clears them and starts again. */
const MAX_MARK = 255;
/**
 * Words whose ways (see Ways) are remembered: the words of a few thousand customer names, at an
 * estimated 250 bytes each (a word of the benchmarks' query mix reaches about 16 vocabulary entries),
 * some 5 MB a thread at most; the mix run three times kept 3 MiB more heap after a full collection.
 */
const PROBE_WAYS = 20_000;
/** Candidates fully scored per query. */
const CANDIDATES = SCORING.CANDIDATES.value;
/** Names ranked under this share of the best name's rank are not candidates. */
const RANK_CUT = SCORING.RANK_CUT.value;
/** Share of a name's weight the query does not cover that lowers its rank (prefer names the query covers). */
const UNCOVERED_WEIGHT = SCORING.UNCOVERED_WEIGHT.value;
/** Smoothing of the IDF so that tiny indexes (tests, one-record pair checks) get sane weights. */
const IDF_PRIOR = SCORING.IDF_PRIOR.value;
/** Spelling folds and phonetic keys remembered while building (bounded, then computed again). */
const BUILD_CACHE = 200_000;

interface Probe {
  text: string;
  pk: string;
  fold?: string;
  idf: number;
  fuzzy: boolean;
}

/** The vocabulary entries a probe reaches, each with the weight of a visit to its names, in the order visited. */
interface Ways {
  /** What the ways were worked out for, beside the word (a word read otherwise gets its own). */
  pk: string;
  fold?: string | undefined;
  idf: number;
  entries: Int32Array;
  weights: Float64Array;
  n: number;
}

function push(map: Map<string, number[]>, key: string, v: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [v]);
  else if (list[list.length - 1] !== v) list.push(v);
}

export type { RankedName };
export { renderingScript, type NameEntry, type RenderingScript } from './listed-names.js';

export class CandidateIndex {
  readonly names: NameEntry[] = [];
  /** The weight of the rarest part: the number of records, smoothed (see IDF_PRIOR). */
  readonly maxIdf: number;
  private readonly records: number;
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
  private neighbours: EditNeighbours | undefined;
  /** Records whose names hold each word or patronymic (document frequency). */
  private readonly df: Map<string, number>;
  /** Words the lists hold in persons' names (see ScoredPart.personal). */
  private readonly personWords: Set<string>;
  /** Listed parts by kind, transliteration and text, while building (see interned()). */
  private parts = new Map<string, ScoredPart>();
  private readonly pkCache = new Map<string, string>();
  private readonly foldCache = new Map<string, string>();
  // Scratch buffers reused by every query (queries are synchronous).
  /**
   * Per name, the rank accumulated by the current query (float32) and which probe of the query last
   * reached it (1 to MAX_MARK, 0: none), in two arrays of 4 and 1 bytes a name: a query's visits
   * land on thousands of names spread over the whole index, and at 5 bytes a name (about 600 KB for
   * the lists) what they touch stays in a core's 1 MiB L2 cache, where 16 bytes a name (acc, stamp and
   * weight side by side, 2 MB) missed it on nearly every first visit. Both are cleared for the
   * names the query reached when it ends.
   */
  private acc: Float32Array = new Float32Array(0);
  private mark: Uint8Array = new Uint8Array(0);
  /** Per name, the sum of its word weights (to prefer candidates whose weight the query covers); read only for names over the cut. */
  private nameWeight: Float64Array = new Float64Array(0);
  /** The last probe that visited each vocabulary entry's names. */
  private vocabStamp: Int32Array = new Int32Array(0);
  /** The names the current query reached, in the order it reached them. */
  private touched: Int32Array = new Int32Array(0);
  /** The candidate heap of the current query (see select). */
  private readonly heap = new CandidateHeap(CANDIDATES);
  /** The vocabulary entries one fuzzy way of a probe reaches (at most MAX_REACHED). */
  private readonly reachable = new Int32Array(MAX_REACHED);
  /** The ways of the probe being read (see reach): at most the exact entry, the same fold and three ways of MAX_REACHED. */
  private readonly way: Ways = {
    pk: '',
    idf: 0,
    entries: new Int32Array(3 * MAX_REACHED + 2),
    weights: new Float64Array(3 * MAX_REACHED + 2),
    n: 0,
  };
  /** The ways of the words queries have probed, by word (bounded: cleared at PROBE_WAYS). */
  private readonly probeWays = new Map<string, Ways>();
  /** Probes of all queries so far (vocabStamp's marks, never cleared). */
  private stampCounter = 0;
  /** The names of record r are names[firstName[r]] up to names[firstName[r + 1]] (they are added record by record). */
  private firstName: Int32Array = new Int32Array(1);
  /** Per name, the first name with the same parts, read the same way (see sameName). */
  private sameAs: Int32Array = new Int32Array(0);

  private constructor(records: number, documentFrequency: Map<string, number>, personWords: Set<string>) {
    this.records = records;
    this.df = documentFrequency;
    this.personWords = personWords;
    this.maxIdf = Math.log((records + IDF_PRIOR) / 1);
  }

  /**
   * The build as a generator that yields every `step` items (see MatchingIndex.buildAsync). Returns
   * the index and every record's normalized primary name, which clustering links on.
   */
  static *build(
    records: ListRecord[],
    step: number,
  ): Generator<void, { index: CandidateIndex; primaryParts: (NamePart[] | undefined)[] }, void> {
    const read = yield* readListedNames(records, step);
    const idx = new CandidateIndex(records.length, read.documentFrequency, read.personWords);
    yield* idx.addNames(read, records, step);
    idx.indexRecords(records.length);
    yield* idx.indexSpellings(step);
    idx.neighbours = yield* EditNeighbours.build(idx.vocabTokens, step * 8);
    yield;
    idx.packPostings();
    idx.allocateScratch();
    return { index: idx, primaryParts: read.primaryParts };
  }

  /** Every listed name with its parts interned and posted under its words, joined pairs and numbers. */
  private *addNames(read: ListedNames, records: ListRecord[], step: number): Generator<void, void, void> {
    const normalized = read.names;
    /** The first name of each spelling (parts and how the name is read), while building: see sameName. */
    const firstOf = new Map<string, number>();
    const sameAs: number[] = [];

    for (let k = 0; k < normalized.length; k++) {
      const n = normalized[k]!;
      const keys = n.parts.map(internKey);
      const parts = n.parts.map((p, i) => this.interned(p, keys[i]!));
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
        rendering: read.latinNamed[n.record] === 1 ? renderingScript(n.name) : undefined,
      });
      const entry = this.names[id]!;
      const spelling = `${entry.organization ? 'o' : 'p'}\u0001${keys.join('\u0001')}`;
      const first = firstOf.get(spelling);
      if (first === undefined) firstOf.set(spelling, id);
      sameAs.push(first ?? id);
      const words = parts.filter(isWordLike);
      for (const p of words) this.post(p.text, p.idf, id);
      for (let i = 0; i + 1 < words.length; i++) {
        const j = words[i]!.text + words[i + 1]!.text;
        this.post(j, Math.max(words[i]!.idf, words[i + 1]!.idf), id);
      }
      // Numbers tell apart the members of a numbered series ("FU YUAN YU 7629" among hundreds).
      for (const p of parts) if (p.kind === 'number') this.post(p.text, this.maxIdf * NUMBER_WEIGHT, id);
      if (k % (step * 4) === 0) yield;
    }
    normalized.length = 0;
    this.sameAs = Int32Array.from(sameAs);
  }

  /** Where each record's names start (see firstName); the names were added record by record. */
  private indexRecords(records: number): void {
    this.firstName = new Int32Array(records + 1).fill(this.names.length);
    for (let id = this.names.length - 1; id >= 0; id--) this.firstName[this.names[id]!.record] = id;
    for (let r = records - 1; r >= 0; r--)
      if (this.firstName[r]! > this.firstName[r + 1]!) this.firstName[r] = this.firstName[r + 1]!;
    this.parts.clear();
  }

  /** The fuzzy ways into the vocabulary: phonetic keys and spelling folds. */
  private *indexSpellings(step: number): Generator<void, void, void> {
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
      if (v % (step * 8) === 0) yield;
    }
    this.pkCache.clear();
    this.foldCache.clear();
  }

  /** The scratch buffers of queries, one slot per name or vocabulary entry. */
  private allocateScratch(): void {
    this.acc = new Float32Array(this.names.length);
    this.mark = new Uint8Array(this.names.length);
    this.nameWeight = new Float64Array(this.names.length);
    for (let i = 0; i < this.names.length; i++) this.nameWeight[i] = this.names[i]!.weight;
    this.touched = new Int32Array(this.names.length);
    this.vocabStamp = new Int32Array(this.vocabTokens.length);
  }

  /**
   * The first name with the same parts as name `id`, read the same way (as a person's or not): it
   * compares with any query as `id` does. The lists repeat one another (the
   * same person listed by several sources), and some spell one name in ways that read alike.
   */
  sameName(id: number): number {
    return this.sameAs[id]!;
  }

  /** Records whose names hold the word or patronymic `t`; undefined when none does. */
  documentFrequency(t: string): number | undefined {
    return this.df.get(t);
  }

  /** A listed name holds the word or patronymic `t`. */
  hasWord(t: string): boolean {
    return this.df.has(t);
  }

  /** `t` is in the vocabulary: a listed word, patronymic or number, or two listed words side by side. */
  hasToken(t: string): boolean {
    return this.vocab.has(t);
  }

  /** A listed word has the spelling fold `f` (and is written otherwise). */
  hasFold(f: string): boolean {
    return this.byFold.has(f);
  }

  /** Listed tokens that may be one edit from `t` (see EditNeighbours.of), not yet checked. */
  *oneEditTokens(t: string): Generator<string, void, void> {
    for (const v of this.neighbours!.of(t)) yield this.vocabTokens[v]!;
  }

  fold(text: string): string {
    let f = this.foldCache.get(text);
    if (f === undefined) {
      f = spellingFold(text);
      if (this.foldCache.size < BUILD_CACHE) this.foldCache.set(text, f);
    }
    return f;
  }

  private pk(text: string): string {
    let k = this.pkCache.get(text);
    if (k === undefined) {
      k = phoneticKey(text);
      if (this.pkCache.size < BUILD_CACHE) this.pkCache.set(text, k);
    }
    return k;
  }

  /**
   * The lists' weight (IDF, nats) of a word, capped for names common in the population; undefined
   * for a word no listed name holds and no population table knows.
   */
  idfOf = (text: string): number | undefined => {
    const df = this.df.get(text);
    const common = isCommonName(text);
    if (df === undefined) return common ? COMMON_NAME_IDF : undefined;
    const idf = Math.log((this.records + IDF_PRIOR) / (df + 1));
    return common && idf > COMMON_NAME_IDF ? COMMON_NAME_IDF : idf;
  };

  /**
   * The one shared ScoredPart of a listed part: names share their parts' objects, which keeps the
   * index small and lets a query remember how it compared with a part (QueryParts.similarity).
   */
  private interned(p: NamePart, key: string): ScoredPart {
    let part = this.parts.get(key);
    if (part === undefined) {
      part = this.scored(p.text, p.kind, p.translit);
      this.parts.set(key, part);
    }
    return part;
  }

  /** A part with the lists' weight, phonetic key and spelling fold. */
  scored(text: string, kind: NamePart['kind'], translit?: NamePart['translit']): ScoredPart {
    const word = kind === 'word' || kind === 'patronymic';
    const idf = word ? (this.idfOf(text) ?? this.maxIdf) : 0;
    const p: ScoredPart = { text, kind, pk: word ? this.pk(text) : '', idf };
    if (translit) p.translit = translit;
    if (word) p.fold = this.fold(text);
    if (word && this.personWords.has(text)) p.personal = true;
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

  /**
   * Candidate names for the query parts, best first; then, whatever their names, every name of the
   * records in `identified` (found by an identifier of the query, identifier-index.ts) not yet among
   * them, with rank 0.
   */
  candidates(q: ScoredPart[], identified?: ReadonlySet<number>): RankedName[] {
    const out = this.nameCandidates(q);
    if (identified === undefined || identified.size === 0) return out;
    const have = new Set(out.map((c) => c.name));
    for (const r of identified)
      for (let id = this.firstName[r]!; id < this.firstName[r + 1]!; id++)
        if (!have.has(id)) out.push({ name: id, rank: 0, seq: out.length });
    return out;
  }

  private nameCandidates(queryParts: ScoredPart[]): RankedName[] {
    const reached = this.accumulate(this.probesOf(queryParts));
    return this.select(reached);
  }

  /** The query's probes: its words (fuzzy), its numbers and its neighbouring words joined (exact). */
  private probesOf(queryParts: ScoredPart[]): Probe[] {
    const words = queryParts.filter(isWordLike);
    const probes: Probe[] = words.map((part) => ({
      text: part.text,
      pk: part.pk,
      fold: part.fold,
      idf: part.idf,
      fuzzy: true,
    }));
    for (const part of queryParts)
      if (part.kind === 'number')
        probes.push({ text: part.text, pk: '', idf: this.maxIdf * NUMBER_WEIGHT, fuzzy: false });
    for (let i = 0; i + 1 < words.length; i++) {
      // Joined query parts are looked up exactly only: the fuzzy neighbourhood of every pair costs too much.
      probes.push({
        text: words[i]!.text + words[i + 1]!.text,
        pk: '',
        idf: Math.max(words[i]!.idf, words[i + 1]!.idf),
        fuzzy: false,
      });
    }
    return probes;
  }

  /**
   * Every probe's visits added to the rank of the names it reaches (once per probe and name, see
   * mark); returns how many names were reached (the first entries of touched).
   */
  private accumulate(probes: Probe[]): number {
    const { touched, acc, mark, postStart, postIds } = this;
    let reached = 0;
    let probeMark = 0;
    for (const probe of probes) {
      if (probeMark === MAX_MARK) {
        // Out of marks (a query of over MAX_MARK probes): every marked name was reached, so is in touched.
        for (let k = 0; k < reached; k++) mark[touched[k]!] = 0;
        probeMark = 0;
      }
      const current = ++probeMark;
      const { entries, weights, n: entryCount } = this.reach(probe);
      for (let e = 0; e < entryCount; e++) {
        const weight = weights[e]!;
        const entry = entries[e]!;
        const end = postStart[entry + 1]!;
        for (let k = postStart[entry]!; k < end; k++) {
          const id = postIds[k]!;
          if (mark[id] === current) continue;
          mark[id] = current;
          const rank = acc[id]!;
          if (rank === 0) touched[reached++] = id;
          acc[id] = rank + weight;
        }
      }
    }
    return reached;
  }

  /**
   * The best CANDIDATES of the `reached` names by rank, names under RANK_CUT of the best left out,
   * and the scratch of every reached name cleared.
   */
  private select(reached: number): RankedName[] {
    const { touched, acc, mark, nameWeight, heap } = this;
    let best = 0;
    for (let k = 0; k < reached; k++) {
      const rank = acc[touched[k]!]!;
      if (rank > best) best = rank;
    }
    const cut = best * RANK_CUT;
    heap.clear();
    for (let seq = 0; seq < reached; seq++) {
      const id = touched[seq]!;
      const shared = acc[id]!;
      acc[id] = 0;
      mark[id] = 0;
      if (shared < cut) continue;
      const extra = nameWeight[id]! - shared;
      heap.offer(shared - UNCOVERED_WEIGHT * (extra > 0 ? extra : 0), seq, id);
    }
    return heap.ranked();
  }

  /**
   * The vocabulary entries a probe reaches and what a visit to each weighs, in the order visited: for
   * a word, remembered (see probeWays), since the same words come back query after query; for a
   * number or two joined words, its exact entry, if any.
   */
  private reach(probe: Probe): Ways {
    if (!probe.fuzzy) {
      const way = this.way;
      way.n = 0;
      const exact = this.vocab.get(probe.text);
      if (exact !== undefined) {
        way.entries[0] = exact;
        way.weights[0] = this.vocabIdf[exact]! < probe.idf ? this.vocabIdf[exact]! : probe.idf;
        way.n = 1;
      }
      return way;
    }
    let ways = this.probeWays.get(probe.text);
    if (ways === undefined || ways.pk !== probe.pk || ways.fold !== probe.fold || ways.idf !== probe.idf) {
      const way = this.wordWays(probe);
      ways = {
        pk: probe.pk,
        fold: probe.fold,
        idf: probe.idf,
        entries: way.entries.slice(0, way.n),
        weights: way.weights.slice(0, way.n),
        n: way.n,
      };
      if (this.probeWays.size >= PROBE_WAYS) this.probeWays.clear();
      this.probeWays.set(probe.text, ways);
    }
    return ways;
  }

  /** The ways of a word: exact, same spelling fold, one slip, same skeleton (see nameCandidates), into this.way. */
  private wordWays(probe: Probe): Ways {
    const way = this.way;
    way.n = 0;
    const { vocabStamp, reachable } = this;
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
      way.entries[way.n] = v;
      way.weights[way.n++] = (x < probe.idf ? x : probe.idf) * quality;
    };
    const exact = this.vocab.get(probe.text);
    if (exact !== undefined) visit(exact, 1);
    // A part carried by very many listed names (Mohamed, Ali) brings its spelling variants'
    // thousands of names too, for little evidence: only its exact and same-spelling forms are used.
    const common = exact !== undefined && this.postingCount(exact) > COMMON_POSTINGS;
    if (probe.fold !== undefined) {
      let f = this.byFold.get(probe.fold);
      if (f && f.length > MAX_REACHED) f = undefined;
      const same = probe.fold !== probe.text ? this.vocab.get(probe.fold) : undefined;
      channel = this.channelIdf(f ?? [], f?.length ?? 0, same);
      if (f) for (const v of f) visit(v, FOLD_VISIT);
      if (same !== undefined) visit(same, FOLD_VISIT);
    }
    if (common) return way;
    // One slip before a shared skeleton: a name reached both ways is visited once, by the first,
    // and one slip is the closer relation.
    if (probe.text.length >= 4) {
      const hits = this.neighbours!.of(probe.text);
      if (hits.size <= MAX_REACHED) {
        let n = 0;
        for (const v of hits) reachable[n++] = v;
        channel = this.channelIdf(reachable, n);
        for (let k = 0; k < n; k++) visit(reachable[k]!, SLIP_VISIT);
      }
    }
    if (probe.pk.length >= 2) {
      const ph = this.byPhonetic.get(probe.pk);
      const len = probe.text.length;
      // Same skeleton and a similar length: spelling variants, not every word with those consonants.
      if (ph && ph.length <= MAX_REACHED) {
        let n = 0;
        for (const v of ph) if (Math.abs(this.vocabLen[v]! - len) <= SKELETON_LENGTH_SLACK) reachable[n++] = v;
        channel = this.channelIdf(reachable, n);
        for (let k = 0; k < n; k++) visit(reachable[k]!, SKELETON_VISIT);
      }
    }
    return way;
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
}
