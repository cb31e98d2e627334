/**
 * Candidate generation: every name of every record split into parts and posted in the vocabulary
 * (vocabulary.ts) under its words, pairs of neighbouring words and numbers. A query reaches listed
 * names through the vocabulary, exactly and by the fuzzy ways (same spelling fold, one slip, same
 * consonant skeleton), and the names are ranked by the weight of the query parts they share, so that
 * only a bounded number is compared in full.
 */
import type { ListRecord } from '../lists/index.js';
import { CandidateHeap, type RankedName } from './candidate-heap.js';
import { COMMON_NAME_IDF, isCommonName } from './common-names.js';
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
import { SCORING } from './scoring-table.js';
import { type Probe, Vocabulary } from './vocabulary.js';

/** Weight of a number part in candidate ranking, as a share of the rarest word's. */
const NUMBER_WEIGHT = SCORING.NUMBER_WEIGHT.value;
/** Marks of the probes of one query (mark is a Uint8Array); a query with more probes clears them and starts again. */
const MAX_MARK = 255;
/** Candidates fully scored per query. */
const CANDIDATES = SCORING.CANDIDATES.value;
/** Names ranked under this share of the best name's rank are not candidates. */
const RANK_CUT = SCORING.RANK_CUT.value;
/** Share of a name's weight the query does not cover that lowers its rank (prefer names the query covers). */
const UNCOVERED_WEIGHT = SCORING.UNCOVERED_WEIGHT.value;
/** Smoothing of the IDF so that tiny indexes (tests, one-record pair checks) get sane weights. */
const IDF_PRIOR = SCORING.IDF_PRIOR.value;

export type { RankedName };
export { renderingScript, type NameEntry, type RenderingScript } from './listed-names.js';

export class CandidateIndex {
  readonly names: NameEntry[] = [];
  /** The weight of the rarest part: the number of records, smoothed (see IDF_PRIOR). */
  readonly maxIdf: number;
  private readonly records: number;
  /** Records whose names hold each word or patronymic (document frequency). */
  private readonly df: Map<string, number>;
  /** Words the lists hold in persons' names (see ScoredPart.personal). */
  private readonly personWords: Set<string>;
  /** Listed parts by kind, transliteration and text, while building (see interned()). */
  private parts = new Map<string, ScoredPart>();
  /** The listed tokens, their names and the fuzzy ways into them. */
  private readonly vocabulary: Vocabulary;
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
  /** The names the current query reached, in the order it reached them. */
  private touched: Int32Array = new Int32Array(0);
  /** The candidate heap of the current query (see select). */
  private readonly heap = new CandidateHeap(CANDIDATES);
  /** The names of record r are names[firstName[r]] up to names[firstName[r + 1]] (they are added record by record). */
  private firstName: Int32Array = new Int32Array(1);
  /** Per name, the first name with the same parts, read the same way (see sameName). */
  private sameAs: Int32Array = new Int32Array(0);

  private constructor(records: number, documentFrequency: Map<string, number>, personWords: Set<string>) {
    this.records = records;
    this.df = documentFrequency;
    this.personWords = personWords;
    this.maxIdf = Math.log((records + IDF_PRIOR) / 1);
    this.vocabulary = new Vocabulary(this.maxIdf);
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
    yield* idx.vocabulary.finish(step);
    idx.allocateScratch();
    return { index: idx, primaryParts: read.primaryParts };
  }

  /** Every listed name with its parts interned and posted under its words, joined pairs and numbers. */
  private *addNames(read: ListedNames, records: ListRecord[], step: number): Generator<void, void, void> {
    const normalized = read.names;
    /** The first name of each spelling (parts and how the name is read), while building: see sameName. */
    const firstOf = new Map<string, number>();
    const sameAs: number[] = [];

    for (let position = 0; position < normalized.length; position++) {
      const listed = normalized[position]!;
      const keys = listed.parts.map(internKey);
      const parts = listed.parts.map((part, i) => this.interned(part, keys[i]!));
      let weight = 0;
      for (const part of parts) if (part.kind === 'word') weight += part.idf;
      const id = this.names.length;
      this.names.push({
        record: listed.record,
        name: listed.name,
        kind: listed.kind,
        quality: listed.quality,
        parts,
        weight,
        organization: records[listed.record]!.entityType !== 'person',
        rendering: read.latinNamed[listed.record] === 1 ? renderingScript(listed.name) : undefined,
      });
      const entry = this.names[id]!;
      const spelling = `${entry.organization ? 'o' : 'p'}\u0001${keys.join('\u0001')}`;
      const first = firstOf.get(spelling);
      if (first === undefined) firstOf.set(spelling, id);
      sameAs.push(first ?? id);
      const words = parts.filter(isWordLike);
      for (const word of words) this.vocabulary.post(word.text, word.idf, id);
      for (let i = 0; i + 1 < words.length; i++) {
        const joined = words[i]!.text + words[i + 1]!.text;
        this.vocabulary.post(joined, Math.max(words[i]!.idf, words[i + 1]!.idf), id);
      }
      // Numbers tell apart the members of a numbered series ("FU YUAN YU 7629" among hundreds).
      for (const part of parts)
        if (part.kind === 'number') this.vocabulary.post(part.text, this.maxIdf * NUMBER_WEIGHT, id);
      if (position % (step * 4) === 0) yield;
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

  /** The scratch buffers of queries, one slot per name or vocabulary entry. */
  private allocateScratch(): void {
    this.acc = new Float32Array(this.names.length);
    this.mark = new Uint8Array(this.names.length);
    this.nameWeight = new Float64Array(this.names.length);
    for (let i = 0; i < this.names.length; i++) this.nameWeight[i] = this.names[i]!.weight;
    this.touched = new Int32Array(this.names.length);
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
    return this.vocabulary.has(t);
  }

  /** A listed word has the spelling fold `f` (and is written otherwise). */
  hasFold(f: string): boolean {
    return this.vocabulary.hasFold(f);
  }

  /** Listed tokens that may be one edit from `t` (see EditNeighbours.of), not yet checked. */
  *oneEditTokens(t: string): Generator<string, void, void> {
    yield* this.vocabulary.oneEditTokens(t);
  }

  /** The spelling fold of `text` (similarity.ts spellingFold), remembered while building. */
  fold(text: string): string {
    return this.vocabulary.fold(text);
  }

  /**
   * The lists' weight (IDF, nats) of a word, capped for names common in the population; undefined
   * for a word no listed name holds and no population table knows.
   */
  idfOf = (text: string): number | undefined => {
    const records = this.df.get(text);
    const common = isCommonName(text);
    if (records === undefined) return common ? COMMON_NAME_IDF : undefined;
    const idf = Math.log((this.records + IDF_PRIOR) / (records + 1));
    return common && idf > COMMON_NAME_IDF ? COMMON_NAME_IDF : idf;
  };

  /**
   * The lists' weight of a word, not capped for names common in the population (see idfOf): how
   * much a word of a company's, vessel's or aircraft's name tells (QueryParts.companyKnown).
   */
  listIdfOf = (text: string): number | undefined => {
    const records = this.df.get(text);
    return records === undefined ? this.idfOf(text) : Math.log((this.records + IDF_PRIOR) / (records + 1));
  };

  /**
   * The one shared ScoredPart of a listed part: names share their parts' objects, which keeps the
   * index small and lets a query remember how it compared with a part (QueryParts.similarity).
   */
  private interned(listed: NamePart, key: string): ScoredPart {
    let part = this.parts.get(key);
    if (part === undefined) {
      part = this.scored(listed.text, listed.kind, listed.translit);
      this.parts.set(key, part);
    }
    return part;
  }

  /**
   * A part with the lists' weight, phonetic key and spelling fold. Every part is made here with
   * every field, in one order, unset ones undefined: one hidden class for all of them, so that the
   * part rules, which read these fields for every pair of parts, find them at one place. (Fields
   * added only where set gave the parts seven shapes, and every read of a field a lookup.)
   */
  scored(text: string, kind: NamePart['kind'], translit?: NamePart['translit']): ScoredPart {
    const word = kind === 'word' || kind === 'patronymic';
    return {
      text,
      kind,
      pk: word ? this.vocabulary.pk(text) : '',
      idf: word ? (this.idfOf(text) ?? this.maxIdf) : 0,
      translit: translit || undefined,
      fold: word ? this.fold(text) : undefined,
      slip: undefined,
      personal: word && this.personWords.has(text) ? true : undefined,
    };
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
    for (const record of identified)
      for (let id = this.firstName[record]!; id < this.firstName[record + 1]!; id++)
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
    const { touched, acc, mark } = this;
    const { postStart, postIds } = this.vocabulary;
    let reached = 0;
    let probeMark = 0;
    for (const probe of probes) {
      if (probeMark === MAX_MARK) {
        // Out of marks (a query of over MAX_MARK probes): every marked name was reached, so is in touched.
        for (let k = 0; k < reached; k++) mark[touched[k]!] = 0;
        probeMark = 0;
      }
      const current = ++probeMark;
      const { entries, weights, n: entryCount } = this.vocabulary.reach(probe);
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
}
