/**
 * The one-edit neighbourhood of the lists' vocabulary (SymSpell-style): every listed token by the
 * hashes of its one-letter deletions, and by the hash of its whole text, so that a query token finds
 * the listed tokens one letter longer, one shorter, or one letter replaced or two swapped, without
 * comparing it with the whole vocabulary. Both tables are flat typed arrays grouped by hash bucket.
 */

/** Deletion neighbourhood index: 2^DELETION_BITS hash buckets. */
const DELETION_BITS = 18;
/** Whole-token index (a token by its hash, to find `t` less one letter without building the string): 2^TOKEN_BITS buckets. */
const TOKEN_BITS = 17;
/** Tokens shorter than this have too many neighbours to be worth a deletion index (and get none). */
const MIN_DELETION_LENGTH = 4;
const DIGIT = /\d/;

/** FNV-1a over a string with the character at `skip` left out (-1: none); 32-bit. */
function hashWithout(t: string, skip: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < t.length; i++) {
    if (i === skip) continue;
    hash ^= t.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
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

/** `token` is `t` with the character at `skip` left out. */
function equalsWithout(token: string, t: string, skip: number): boolean {
  if (token.length !== t.length - 1) return false;
  for (let i = 0, k = 0; i < t.length; i++) {
    if (i === skip) continue;
    if (token.charCodeAt(k++) !== t.charCodeAt(i)) return false;
  }
  return true;
}

function indexed(token: string): boolean {
  return token.length >= MIN_DELETION_LENGTH && !DIGIT.test(token);
}

export class EditNeighbours {
  private constructor(
    private readonly tokens: readonly string[],
    /** Deletion index: bucket offsets, then (hash, token id) pairs grouped by bucket. */
    private readonly delStart: Uint32Array,
    private readonly delHash: Uint32Array,
    private readonly delVocab: Int32Array,
    /** Whole-token index: bucket offsets, then token ids grouped by bucket. */
    private readonly tokenStart: Uint32Array,
    private readonly tokenVocab: Int32Array,
  ) {}

  /** The build as a generator that yields every `step` tokens (see MatchingIndex.buildAsync). */
  static *build(tokens: readonly string[], step: number): Generator<void, EditNeighbours, void> {
    // The deletion neighbourhood counted per bucket, then placed (a counting sort).
    const buckets = 1 << DELETION_BITS;
    const shift = 32 - DELETION_BITS;
    const start = new Uint32Array(buckets + 1);
    for (let v = 0; v < tokens.length; v++) {
      const token = tokens[v]!;
      if (indexed(token)) for (const hash of deletionHashes(token)) start[(hash >>> shift) + 1]!++;
      if (v % step === 0) yield;
    }
    for (let b = 0; b < buckets; b++) start[b + 1]! += start[b]!;
    const total = start[buckets]!;
    const fill = start.slice(0, buckets);
    const delHash = new Uint32Array(total);
    const delVocab = new Int32Array(total);
    yield;
    for (let v = 0; v < tokens.length; v++) {
      const token = tokens[v]!;
      if (!indexed(token)) continue;
      for (const hash of deletionHashes(token)) {
        const at = fill[hash >>> shift]!++;
        delHash[at] = hash;
        delVocab[at] = v;
      }
      if (v % step === 0) yield;
    }
    // Every token by the hash of its whole text (counting sort into buckets again).
    const tokenShift = 32 - TOKEN_BITS;
    const tokenStart = new Uint32Array((1 << TOKEN_BITS) + 1);
    const tokenHashes = new Uint32Array(tokens.length);
    for (let v = 0; v < tokens.length; v++) {
      tokenHashes[v] = hashWithout(tokens[v]!, -1);
      tokenStart[(tokenHashes[v]! >>> tokenShift) + 1]!++;
      if (v % step === 0) yield;
    }
    for (let b = 0; b < 1 << TOKEN_BITS; b++) tokenStart[b + 1]! += tokenStart[b]!;
    const tokenFill = tokenStart.slice(0, 1 << TOKEN_BITS);
    const tokenVocab = new Int32Array(tokens.length);
    for (let v = 0; v < tokens.length; v++) tokenVocab[tokenFill[tokenHashes[v]! >>> tokenShift]!++] = v;
    return new EditNeighbours(tokens, start, delHash, delVocab, tokenStart, tokenVocab);
  }

  /**
   * Token ids that may be one edit away from `t`: one letter longer, one shorter, or one letter
   * substituted or two swapped. Deletion-hash hits are candidates, not yet checked.
   */
  of(t: string): Set<number> {
    const hits = new Set<number>();
    // A listed token one letter longer than t.
    this.deletionHits(hashWithout(t, -1), hits);
    for (let i = 0; i < t.length; i++) {
      if (i > 0 && t.charCodeAt(i) === t.charCodeAt(i - 1)) continue;
      const hash = hashWithout(t, i);
      // One letter shorter: the deletion itself is listed...
      const bucket = hash >>> (32 - TOKEN_BITS);
      const end = this.tokenStart[bucket + 1]!;
      for (let k = this.tokenStart[bucket]!; k < end; k++) {
        const vocab = this.tokenVocab[k]!;
        if (equalsWithout(this.tokens[vocab]!, t, i)) {
          hits.add(vocab);
          break;
        }
      }
      // ...or both lost one letter (a substitution or a swap).
      this.deletionHits(hash, hits);
    }
    return hits;
  }

  /** Tokens whose one-deletion neighbourhood contains the string with `h`'s hash. */
  private deletionHits(h: number, out: Set<number>): void {
    const bucket = h >>> (32 - DELETION_BITS);
    const end = this.delStart[bucket + 1]!;
    for (let i = this.delStart[bucket]!; i < end; i++) if (this.delHash[i] === h) out.add(this.delVocab[i]!);
  }
}
