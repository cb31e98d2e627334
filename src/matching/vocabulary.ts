/**
 * The vocabulary of the listed names: every listed word, patronymic, number and pair of neighbouring
 * words, with its weight and the names that hold it (posting lists), and the fuzzy ways into it (the
 * same spelling fold, one slip (edit-neighbours.ts), the same consonant skeleton). A query's word
 * reaches vocabulary entries through them (see Vocabulary.reach); candidate-index.ts ranks the names
 * behind the entries reached.
 */
import { EditNeighbours } from './edit-neighbours.js';
import { phoneticKey, spellingFold } from './similarity.js';
import { SCORING } from './scoring-table.js';

/** Listed names carrying a part above which its fuzzy neighbourhood is not searched. */
const COMMON_POSTINGS = SCORING.COMMON_POSTINGS.value;
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
/**
 * Words whose ways (see Ways) are remembered: the words of a few thousand customer names, at an
 * estimated 250 bytes each (a word of the benchmarks' query mix reaches about 16 vocabulary entries),
 * some 5 MB a thread at most; the mix run three times kept 3 MiB more heap after a full collection.
 */
const PROBE_WAYS = 20_000;
/** Spelling folds and phonetic keys remembered while building (bounded, then computed again). */
const BUILD_CACHE = 200_000;

/** One lookup of a query: a word (fuzzy), a number or two neighbouring words joined (exact). */
export interface Probe {
  text: string;
  pk: string;
  fold?: string;
  idf: number;
  fuzzy: boolean;
}

/** The vocabulary entries a probe reaches, each with the weight of a visit to its names, in the order visited. */
export interface Ways {
  /** What the ways were worked out for, beside the word (a word read otherwise gets its own). */
  pk: string;
  fold?: string | undefined;
  idf: number;
  entries: Int32Array;
  weights: Float64Array;
  n: number;
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else if (list[list.length - 1] !== value) list.push(value);
}

export class Vocabulary {
  private readonly entryOf = new Map<string, number>();
  private readonly tokens: string[] = [];
  /** Names per entry while building; packed into postStart/postIds by pack(). */
  private postings: number[][] = [];
  /** The names of entry v are postIds[postStart[v]] up to postIds[postStart[v + 1]] (read by queries in order). */
  postStart: Uint32Array = new Uint32Array(1);
  postIds: Int32Array = new Int32Array(0);
  private readonly idf: number[] = [];
  private readonly length: number[] = [];
  private readonly byPhonetic = new Map<string, number[]>();
  private readonly byFold = new Map<string, number[]>();
  private neighbours: EditNeighbours | undefined;
  private readonly pkCache = new Map<string, string>();
  private readonly foldCache = new Map<string, string>();
  // Scratch of the ways of one probe (queries are synchronous).
  /** The last probe that visited each entry. */
  private stamp: Int32Array = new Int32Array(0);
  /** Probes so far (stamp's marks, never cleared). */
  private stampCounter = 0;
  /** The entries one fuzzy way of a probe reaches (at most MAX_REACHED). */
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

  /** `maxIdf`: the weight of the rarest part, what a way that reaches nothing is worth (see channelIdf). */
  constructor(private readonly maxIdf: number) {}

  /** Posts name `nameId` under `token` (a new entry of weight `idf` the first time). */
  post(token: string, idf: number, nameId: number): void {
    let entry = this.entryOf.get(token);
    if (entry === undefined) {
      entry = this.postings.length;
      this.entryOf.set(token, entry);
      this.postings.push([]);
      this.tokens.push(token);
      this.idf.push(idf);
      this.length.push(token.length);
    }
    const list = this.postings[entry]!;
    if (list[list.length - 1] !== nameId) list.push(nameId);
  }

  /** Once every name is posted: the fuzzy ways into the entries, then the posting lists packed. */
  *finish(step: number): Generator<void, void, void> {
    yield* this.indexSpellings(step);
    this.neighbours = yield* EditNeighbours.build(this.tokens, step * 8);
    yield;
    this.pack();
    this.stamp = new Int32Array(this.tokens.length);
  }

  /** The fuzzy ways into the vocabulary: phonetic keys and spelling folds. */
  private *indexSpellings(step: number): Generator<void, void, void> {
    const tokens = this.tokens;
    for (let entry = 0; entry < tokens.length; entry++) {
      const token = tokens[entry]!;
      if (DIGIT.test(token)) continue;
      const pk = this.pk(token);
      if (pk.length >= 2) push(this.byPhonetic, pk, entry);
      if (token.length >= 3) {
        const fold = this.fold(token);
        if (fold !== token) push(this.byFold, fold, entry);
      }
      if (entry % (step * 8) === 0) yield;
    }
    this.pkCache.clear();
    this.foldCache.clear();
  }

  /** One flat array of name ids, entry after entry: compact, and read in order by queries. */
  private pack(): void {
    const start = new Uint32Array(this.postings.length + 1);
    for (let entry = 0; entry < this.postings.length; entry++)
      start[entry + 1] = start[entry]! + this.postings[entry]!.length;
    const ids = new Int32Array(start[this.postings.length]!);
    for (let entry = 0; entry < this.postings.length; entry++) ids.set(this.postings[entry]!, start[entry]!);
    this.postStart = start;
    this.postIds = ids;
    this.postings = [];
  }

  /** `token` is an entry: a listed word, patronymic or number, or two listed words side by side. */
  has(token: string): boolean {
    return this.entryOf.has(token);
  }

  /** A listed word has the spelling fold `fold` (and is written otherwise). */
  hasFold(fold: string): boolean {
    return this.byFold.has(fold);
  }

  /** Listed tokens that may be one edit from `token` (see EditNeighbours.of), not yet checked. */
  *oneEditTokens(token: string): Generator<string, void, void> {
    for (const entry of this.neighbours!.of(token)) yield this.tokens[entry]!;
  }

  fold(text: string): string {
    let fold = this.foldCache.get(text);
    if (fold === undefined) {
      fold = spellingFold(text);
      if (this.foldCache.size < BUILD_CACHE) this.foldCache.set(text, fold);
    }
    return fold;
  }

  pk(text: string): string {
    let key = this.pkCache.get(text);
    if (key === undefined) {
      key = phoneticKey(text);
      if (this.pkCache.size < BUILD_CACHE) this.pkCache.set(text, key);
    }
    return key;
  }

  private postingCount(entry: number): number {
    return this.postStart[entry + 1]! - this.postStart[entry]!;
  }

  /**
   * The entries a probe reaches and what a visit to each weighs, in the order visited: for a word,
   * remembered (see probeWays), since the same words come back query after query; for a number or
   * two joined words, its exact entry, if any.
   */
  reach(probe: Probe): Ways {
    if (!probe.fuzzy) {
      const way = this.way;
      way.n = 0;
      const exact = this.entryOf.get(probe.text);
      if (exact !== undefined) {
        way.entries[0] = exact;
        way.weights[0] = this.idf[exact]! < probe.idf ? this.idf[exact]! : probe.idf;
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

  /** The ways of a word: exact, same spelling fold, one slip, same skeleton, into this.way. */
  private wordWays(probe: Probe): Ways {
    const way = this.way;
    way.n = 0;
    const { stamp, reachable } = this;
    const current = ++this.stampCounter;
    // A visit weighs the listed part's weight, at most the probe's; through a fuzzy way of reaching
    // parts, what the part weighs beyond the information of all the parts that way reaches together
    // (see channelIdf) counts for little.
    let channel = Infinity;
    const visit = (entry: number, quality: number): void => {
      // A part reached again by another way of the same probe (one slip and the same skeleton)
      // reaches the same names, which count once per probe: nothing to do.
      if (stamp[entry] === current) return;
      stamp[entry] = current;
      let weight = this.idf[entry]!;
      if (weight > channel) weight = channel + CHANNEL_EXCESS * (weight - channel);
      way.entries[way.n] = entry;
      way.weights[way.n++] = (weight < probe.idf ? weight : probe.idf) * quality;
    };
    const exact = this.entryOf.get(probe.text);
    if (exact !== undefined) visit(exact, 1);
    // A part carried by very many listed names (Mohamed, Ali) brings its spelling variants'
    // thousands of names too, for little evidence: only its exact and same-spelling forms are used.
    const common = exact !== undefined && this.postingCount(exact) > COMMON_POSTINGS;
    if (probe.fold !== undefined) {
      let folded = this.byFold.get(probe.fold);
      if (folded && folded.length > MAX_REACHED) folded = undefined;
      const same = probe.fold !== probe.text ? this.entryOf.get(probe.fold) : undefined;
      channel = this.channelIdf(folded ?? [], folded?.length ?? 0, same);
      if (folded) for (const entry of folded) visit(entry, FOLD_VISIT);
      if (same !== undefined) visit(same, FOLD_VISIT);
    }
    if (common) return way;
    // One slip before a shared skeleton: a name reached both ways is visited once, by the first,
    // and one slip is the closer relation.
    if (probe.text.length >= 4) {
      const hits = this.neighbours!.of(probe.text);
      if (hits.size <= MAX_REACHED) {
        let reached = 0;
        for (const entry of hits) reachable[reached++] = entry;
        channel = this.channelIdf(reachable, reached);
        for (let k = 0; k < reached; k++) visit(reachable[k]!, SLIP_VISIT);
      }
    }
    if (probe.pk.length >= 2) {
      const skeleton = this.byPhonetic.get(probe.pk);
      const length = probe.text.length;
      // Same skeleton and a similar length: spelling variants, not every word with those consonants.
      if (skeleton && skeleton.length <= MAX_REACHED) {
        let reached = 0;
        for (const entry of skeleton)
          if (Math.abs(this.length[entry]! - length) <= SKELETON_LENGTH_SLACK) reachable[reached++] = entry;
        channel = this.channelIdf(reachable, reached);
        for (let k = 0; k < reached; k++) visit(reachable[k]!, SKELETON_VISIT);
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
    let share = extra === undefined ? 0 : Math.exp(-this.idf[extra]!);
    for (let k = 0; k < n; k++) share += Math.exp(-this.idf[members[k]!]!);
    return share > 0 ? Math.max(0, -Math.log(share)) : this.maxIdf;
  }
}
