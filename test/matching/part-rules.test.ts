import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PART_RULES, type ExamplePart } from '../../src/matching/part-rules.js';
import { partSimilarity, type ScoredPart } from '../../src/matching/part-similarity.js';
import { phoneticKey, spellingFold } from '../../src/matching/similarity.js';

/** A part as the index scores it (candidate-index.ts scored): skeleton and fold for words. */
function scored(p: ExamplePart): ScoredPart {
  const o = typeof p === 'string' ? { text: p } : p;
  const kind = o.kind ?? 'word';
  const word = kind === 'word' || kind === 'patronymic';
  const part: ScoredPart = { text: o.text, kind, pk: word ? phoneticKey(o.text) : '', idf: 5 };
  if (o.translit) part.translit = o.translit;
  if (word) part.fold = spellingFold(o.text);
  if (o.personal) part.personal = true;
  return part;
}

const show = (p: ExamplePart): string => (typeof p === 'string' ? p : JSON.stringify(p));

for (const rule of PART_RULES)
  test(`part rule ${rule.id}: its example pairs hold`, () => {
    assert.ok(rule.examples.length > 0, `${rule.id} has no example`);
    for (const e of rule.examples) {
      const r = partSimilarity(scored(e.a), scored(e.b));
      assert.ok(
        Math.abs(r.s - e.s) < 1e-4,
        `${rule.id}: ${show(e.a)} / ${show(e.b)} gives ${r.s}, the rule says ${e.s}`,
      );
      assert.equal(r.how, e.how, `${rule.id}: ${show(e.a)} / ${show(e.b)}`);
      // The similarity of two parts does not depend on their order.
      assert.ok(Math.abs(partSimilarity(scored(e.b), scored(e.a)).s - e.s) < 1e-4, `${rule.id} reversed`);
    }
  });

test('partSimilarity applies its rules in the order of PART_RULES, each once', () => {
  const source = readFileSync(path.join(process.cwd(), 'src/matching/part-similarity.ts'), 'utf8');
  const body = source.slice(source.indexOf('export function partSimilarity('), source.indexOf('\nconst OPAQUE'));
  const marked = [...body.matchAll(/\/\/ rule: ([a-z-]+)/g)].map((m) => m[1]);
  assert.deepEqual(
    marked,
    PART_RULES.map((r) => r.id),
  );
  assert.equal(new Set(marked).size, marked.length);
});

test('the part rules pin both what matches and what must not', () => {
  const all = PART_RULES.flatMap((r) => r.examples);
  assert.ok(all.some((e) => e.s === 0));
  assert.ok(all.some((e) => e.s >= 0.9));
  assert.ok(all.filter((e) => e.s > 0 && e.s < 0.9).length > 5);
});
