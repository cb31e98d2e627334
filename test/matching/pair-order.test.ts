import { test } from 'node:test';
import assert from 'node:assert/strict';
import { comparePairs, sortPairs } from '../../src/matching/name-compare.js';
import type { Pair } from '../../src/matching/name-comparison.js';
import { rng } from '../../bench/query-mix.js';

// compareParts takes pairs in the order sortPairs gives: by insertion for a few pairs, by the array's
// own sort for more. Both must give the order of a stable sort by comparePairs, ties included (equal
// similarities and widths are common: one query part against two listed spellings of one word).

function randomPairs(count: number, next: () => number): Pair[] {
  const pairs: Pair[] = [];
  for (let k = 0; k < count; k++) {
    const qi = Math.floor(next() * 5);
    const ci = Math.floor(next() * 6);
    pairs.push({
      qi,
      qj: qi + (next() < 0.2 ? 1 : 0),
      ci,
      cj: ci + (next() < 0.2 ? 1 : 0),
      // Few distinct similarities, so that ties are frequent.
      s: [1, 0.9, 0.85, 0.5][Math.floor(next() * 4)]!,
      how: 'exact',
    });
  }
  return pairs;
}

/** The reference: a merge sort, stable by construction, written here so it owes nothing to either path. */
function stableSorted(pairs: Pair[], queryLength: number, listedLength: number): Pair[] {
  if (pairs.length <= 1) return [...pairs];
  const middle = Math.floor(pairs.length / 2);
  const left = stableSorted(pairs.slice(0, middle), queryLength, listedLength);
  const right = stableSorted(pairs.slice(middle), queryLength, listedLength);
  const out: Pair[] = [];
  while (left.length && right.length)
    out.push(comparePairs(right[0]!, left[0]!, queryLength, listedLength) < 0 ? right.shift()! : left.shift()!);
  return [...out, ...left, ...right];
}

test('pairs are taken in the order of a stable sort, by insertion and by the array sort alike', () => {
  const next = rng(11);
  for (let round = 0; round < 400; round++) {
    const count = round % 40; // 0 to 39: both sides of INSERTION_SORT_PAIRS
    const pairs = randomPairs(count, next);
    // Names of one length: every pair whose parts stand at the same place ties on that too.
    const queryLength = 6;
    const listedLength = 6;
    const expected = stableSorted(pairs, queryLength, listedLength);
    sortPairs(pairs, queryLength, listedLength);
    // The very objects in the same places: tied pairs keep their order (a structural comparison
    // would not tell two tied pairs with the same fields apart).
    assert.ok(
      pairs.every((p, k) => p === expected[k]),
      `round ${round}, ${count} pairs`,
    );
    // The same objects, each once: nothing copied or lost.
    assert.equal(new Set(pairs).size, count);
  }
});

test('the most similar pair comes first, then the wider one, then the one at the same relative place', () => {
  const pair = (qi: number, qj: number, ci: number, cj: number, s: number): Pair => ({
    qi,
    qj,
    ci,
    cj,
    s,
    how: 'exact',
  });
  const weaker = pair(0, 0, 0, 0, 0.8);
  const narrow = pair(1, 1, 1, 1, 0.9);
  const wide = pair(0, 1, 2, 2, 0.9);
  const farPlace = pair(0, 0, 2, 2, 1);
  const samePlace = pair(2, 2, 2, 2, 1);
  const pairs = [weaker, narrow, wide, farPlace, samePlace];
  sortPairs(pairs, 3, 3);
  assert.deepEqual(pairs, [samePlace, farPlace, wide, narrow, weaker]);
});
