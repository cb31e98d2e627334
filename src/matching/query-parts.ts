/**
 * One query's side of its comparisons (see QueryParts): worked out once, read by the comparison
 * (name-compare.ts) and its score (name-score.ts).
 */
import { joinRuns, wordLengths, type JoinRun } from './joined-parts.js';
import type { PartKind } from './normalize.js';
import { partSimilarity, type ScoredPart } from './part-similarity.js';

/** Parts that name someone or something: words, patronymics, initials, particles (not numbers or legal forms). */
export const CONTENT = new Set<PartKind>(['word', 'patronymic', 'initial', 'particle']);

type Similarity = ReturnType<typeof partSimilarity>;

/**
 * One query's side of its comparisons, worked out once for the dozens of listed names it is compared
 * with: its content parts, numbers and list weights, and the part similarities already computed.
 * Listed parts are shared objects (the index interns them), and a query meets the same listed part in
 * many candidate names (about three comparisons in four repeat one), so each pair is scored once.
 */
export class QueryParts {
  readonly content: number[] = [];
  readonly numbers: string[] = [];
  /** The lists' weight of each query part, undefined where the lists do not know the part. */
  readonly known: (number | undefined)[];
  /**
   * The same, not capped for names common in the population, for an organization's query against
   * an organization's, vessel's or aircraft's name: that many people are named Denise or Schneider
   * says little of how many companies or ships are (Denise Company, Schneider GmbH, Lady Leila);
   * how many listings hold the word does.
   */
  readonly companyKnown: (number | undefined)[];
  /**
   * The similarities worked out so far, by listed part: a row per listed part, a slot per query part
   * (a comparison meets a listed part with each of the query's parts: one map entry for them all).
   */
  private readonly seen = new Map<ScoredPart, (Similarity | undefined)[]>();
  /** The query's joinable runs (see joinRuns), and the lengths of its words (see wordLengths). */
  readonly runs: JoinRun[];
  readonly wordLengths: number;
  /** Every content part was read from Chinese characters (see scoreAlignment). */
  readonly han: boolean;
  /**
   * The name has two content parts or more, all read from Chinese characters or Hangul: a Chinese,
   * Japanese or Korean name written in its own characters, family name first (see familyNameUnmatched).
   */
  readonly familyFirst: boolean;

  /**
   * The query says it names an organization, vessel or aircraft: by its entity type, or by a legal
   * form among its parts (not one read from a slip, which may be a surname: see ScoredPart.slip).
   */
  readonly organization: boolean;

  constructor(
    readonly parts: ScoredPart[],
    idfOf: (s: string) => number | undefined,
    readonly maxIdf: number,
    organizationType = false,
    /** The query names a person by a role title ("President Putin", "Mullah Omar"; see namesByTitle). */
    readonly byTitle = false,
    listIdfOf: (s: string) => number | undefined = idfOf,
  ) {
    this.organization = organizationType || parts.some((p) => p.kind === 'legal' && p.slip !== true);
    for (let i = 0; i < parts.length; i++) {
      const kind = parts[i]!.kind;
      if (CONTENT.has(kind)) this.content.push(i);
      else if (kind === 'number') this.numbers.push(parts[i]!.text);
    }
    this.known = parts.map((p) => (p.kind === 'word' ? idfOf(p.text) : undefined));
    this.companyKnown = this.organization
      ? parts.map((p) => (p.kind === 'word' ? listIdfOf(p.text) : undefined))
      : this.known;
    this.wordLengths = wordLengths(parts, this.content);
    this.han = this.content.length > 0 && this.content.every((i) => parts[i]!.translit === 'han');
    this.familyFirst =
      this.content.length >= 2 &&
      this.content.every((i) => parts[i]!.translit === 'han' || parts[i]!.translit === 'hangul');
    // The syllables of a given name are written apart or joined (Song Hun, Songhun); a family name
    // is never joined to them (莫娜 is Mo Na, not Mona).
    const runs = joinRuns(parts, this.content);
    this.runs = this.familyFirst ? runs.filter((r) => r.start > 0) : runs;
  }

  /** partSimilarity of query part `i` and a listed part, computed once per pair. */
  similarity(i: number, listed: ScoredPart): Similarity {
    let row = this.seen.get(listed);
    if (row === undefined) {
      row = new Array<Similarity | undefined>(this.parts.length);
      this.seen.set(listed, row);
    }
    let scored = row[i];
    if (scored === undefined) {
      scored = partSimilarity(this.parts[i]!, listed);
      row[i] = scored;
    }
    return scored;
  }
}
