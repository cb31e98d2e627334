import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyRecord, type ListRecord } from '../../src/lists/model.js';
import { sample, samplePositions } from '../../src/validation/run-queries.js';
import { rng } from '../../src/validation/seeded.js';
import { ListedNames, namesOf } from '../../src/validation/self-screen.js';

/**
 * A run draws its samples without copying the whole population (issue 31: the copies held a server's
 * HTTP thread): the draws must be those of a plain Fisher-Yates shuffle over a copy, so that a seed
 * still names the same sample, and a listed name numbered without being made must be the one that
 * listing every name would have put at that number.
 */

/** The plain shuffle over a copy, as the runs drew before. */
function copiedShuffle<T>(xs: readonly T[], count: number, rand: () => number): T[] {
  if (count >= xs.length) return [...xs];
  const copy = [...xs];
  for (let at = 0; at < count; at++) {
    const other = at + Math.floor(rand() * (copy.length - at));
    [copy[at], copy[other]] = [copy[other]!, copy[at]!];
  }
  return copy.slice(0, count);
}

const record = (id: string, name: string, aliases: string[], source: ListRecord['source'] = 'eu_csl'): ListRecord => ({
  ...emptyRecord(source, id, 'person', name),
  aliases: aliases.map((alias) => ({ name: alias, quality: 'strong', kind: 'aka' })),
});

describe('validation sampling', () => {
  it('draws what a shuffle of a copy draws, for every seed and size', () => {
    const population = Array.from({ length: 300 }, (_, at) => `item ${at}`);
    for (const seed of [1, 7, 20260522]) {
      for (const count of [0, 1, 17, 299, 300, 400]) {
        assert.deepEqual(sample(population, count, rng(seed)), copiedShuffle(population, count, rng(seed)));
      }
    }
    const drawn = samplePositions(1000, 1000 - 1, rng(3));
    assert.equal(new Set(drawn).size, drawn.length, 'no position twice');
  });

  it('numbers listed names as listing them all would', async () => {
    const records = [
      record('1', 'Anna Petrova', ['Anna Petrova', ' Anna Petrova ', 'Anya Petrova']),
      record('2', 'Derived Owner', ['Owned Alias'], 'us_ofac_50'),
      record('3', '', []),
      record('4', 'Ivan Sidorov', ['', 'I. Sidorov', 'Vanya Sidorov']),
      record('5', 'Lone Name', []),
    ];
    const every = records.flatMap(namesOf);
    assert.deepEqual(
      every.map((n) => n.name),
      ['Anna Petrova', 'Anya Petrova', 'Ivan Sidorov', 'I. Sidorov', 'Vanya Sidorov', 'Lone Name'],
    );
    const listed = await ListedNames.of(records);
    assert.equal(listed.count, every.length);
    every.forEach((name, position) => {
      assert.equal(listed.at(position).name, name.name);
      assert.equal(listed.at(position).record.id, name.record.id);
    });
    assert.equal(listed.startOf(3), 2);
  });
});
