import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareParts } from '../../src/matching/name-compare.js';
import { QueryParts } from '../../src/matching/query-parts.js';
import { type ScoredPart, farApart } from '../../src/matching/part-similarity.js';
import { normalizeName } from '../../src/matching/normalize.js';
import { jaroWinkler, levenshtein, phoneticKey, spellingFold } from '../../src/matching/similarity.js';
import { rng } from '../../bench/query-mix.js';

// compareParts(query, listed, organization, atLeast) skips the alignment of a name that cannot score
// `atLeast`. That is only right if its bound is never below the score the full comparison gives:
// checked here on many generated name pairs (joined parts, initials, particles, repeats, parts the
// lists do not know, patronymics, numbers).

const WORDS = [
  'abdul',
  'rahman',
  'abdulrahman',
  'abdel',
  'mohammad',
  'muhammad',
  'ali',
  'hassan',
  'hasan',
  'karimi',
  'qadhafi',
  'gaddafi',
  'vladimir',
  'vladimirovich',
  'putin',
  'poutine',
  'jean',
  'claude',
  'juncker',
  'kim',
  'jong',
  'un',
  'jongun',
  'mao',
  'tse',
  'tung',
  'zedong',
  'al',
  'bin',
  'ibn',
  'de',
  'la',
  'j',
  'c',
  'k',
  'trading',
  'corp',
  'ltd',
  '7',
  '11420',
  'ocean',
  'star',
  'rezaei',
  'tehrani',
  'osama',
  'usama',
  'laden',
  'ladin',
  'nouri',
  'petrov',
  'petrova',
  'ivanovna',
];
const weights = new Map<string, number>();
const pick = rng(4711);
for (const w of WORDS) if (pick() < 0.8) weights.set(w, 1 + pick() * 10);
const idfOf = (t: string): number | undefined => weights.get(t);
const MAX_IDF = 11.5;

function scored(name: string, person: boolean, weightOf = idfOf): ScoredPart[] {
  return normalizeName(name, person).parts.map((p) => {
    const word = p.kind === 'word' || p.kind === 'patronymic';
    const part: ScoredPart = {
      text: p.text,
      kind: p.kind,
      pk: word ? phoneticKey(p.text) : '',
      idf: word ? (weightOf(p.text) ?? MAX_IDF) : 0,
    };
    if (word) part.fold = spellingFold(p.text);
    return part;
  });
}

function randomName(next: () => number): string {
  const n = 1 + Math.floor(next() * 5);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(next() * WORDS.length)]!);
  return out.join(' ');
}

test('the comparison bound is never below the score of the full comparison', () => {
  const next = rng(7);
  let checked = 0;
  let skipped = 0;
  for (let k = 0; k < 4000; k++) {
    const person = next() < 0.5;
    const organization = !person && next() < 0.5;
    const q = scored(randomName(next), person);
    const c = scored(randomName(next), person);
    if (q.length === 0 || c.length === 0) continue;
    const query = new QueryParts(q, idfOf, MAX_IDF);
    const full = compareParts(query, c, { organization });
    checked++;
    if (full.score > 0) {
      const atItsScore = compareParts(query, c, { organization }, 100 * full.score * (1 - 1e-12));
      assert.ok(
        atItsScore !== undefined,
        `skipped although it scores ${full.score}: ${q.map((p) => p.text).join(' ')} / ${c.map((p) => p.text).join(' ')}`,
      );
      assert.equal(atItsScore.score, full.score);
    }
    if (compareParts(query, c, { organization }, 30) === undefined) skipped++;
  }
  assert.ok(checked > 3000);
  // The bound does its job: weak pairs are skipped.
  assert.ok(skipped > checked / 10, `only ${skipped} of ${checked} skipped`);
});

test('a candidate sharing one common part with the query is skipped; a close one is not', () => {
  // Weights as on the real lists: Mohammad, Ali and Hassan common, Rezaei and Tehrani rare.
  const listWeights = new Map([
    ['mohammad', 3.5],
    ['ali', 3.2],
    ['hassan', 3.4],
    ['rezaei', 9.1],
    ['tehrani', 8.7],
  ]);
  const weightOf = (t: string): number | undefined => listWeights.get(t);
  const query = new QueryParts(scored('Mohammad Rezaei Tehrani', true, weightOf), weightOf, MAX_IDF);
  assert.equal(
    compareParts(query, scored('Mohammad Ali Hassan', true, weightOf), { organization: false }, 30),
    undefined,
  );
  const close = compareParts(query, scored('Mohammad Rezaei Tehrani', true, weightOf), { organization: false }, 30);
  assert.ok(close !== undefined && close.score > 0.9);
});

test('farApart never rules out a pair Jaro-Winkler puts at 0.9 or more or the edit distance at 2 or less', () => {
  const next = rng(99);
  const letters = 'aaaeeiioouubdhklmnrsty';
  const word = (): string => {
    const n = 2 + Math.floor(next() * 9);
    let w = '';
    for (let i = 0; i < n; i++) w += letters[Math.floor(next() * letters.length)];
    return w;
  };
  // Pairs of unrelated words, and of words with a few slips, so that both sides of the rule are hit.
  const slipped = (w: string): string => {
    let out = w;
    for (let k = Math.floor(next() * 4); k > 0; k--) {
      const at = Math.floor(next() * out.length);
      out =
        next() < 0.5
          ? out.slice(0, at) + out.slice(at + 1)
          : out.slice(0, at) + letters[Math.floor(next() * letters.length)] + out.slice(at);
    }
    return out || w;
  };
  let ruledOut = 0;
  for (let k = 0; k < 20000; k++) {
    const a = word();
    const b = k % 2 === 0 ? word() : slipped(a);
    if (!farApart(a, b)) continue;
    ruledOut++;
    assert.ok(jaroWinkler(a, b) < 0.9, `${a} / ${b}: Jaro-Winkler ${jaroWinkler(a, b)}`);
    assert.ok(levenshtein(a, b) > 2, `${a} / ${b}: edit distance ${levenshtein(a, b)}`);
  }
  assert.ok(ruledOut > 2000, `only ${ruledOut} pairs ruled out`);
});
