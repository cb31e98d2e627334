import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MatchingIndex } from '../../src/matching/index.js';
import type { MatchOptions } from '../../src/matching/types.js';
import { sampleRecords } from '../helpers/harness.js';

/**
 * screenVariants (a profile backtest's two sides in one job, issue 29) compares each listed name
 * with the query once for every option set; each outcome must be the one screen() gives alone.
 */
const records = Object.values(sampleRecords()).flat();
const index = MatchingIndex.build(records);

const VARIANTS: MatchOptions[][] = [
  [{}, { floor: 70, sources: ['un_csl'] }],
  [{ floor: 65 }, {}],
  [{ groupByCluster: true }, { groupByCluster: true, knobs: { weakAliases: false, missingBirthDatePoints: -10 } }],
  [{}, { rowFloors: { bySource: { us_ofac: 75 }, otherwise: 55 }, floor: 55 }],
];

test('screenVariants gives, for each option set, the outcome screen() gives alone', () => {
  const names = records.slice(0, 40).flatMap((r) => [r.name, r.name.split(' ').reverse().join(' '), `${r.name}x`]);
  let reported = 0;
  for (const name of names) {
    for (const variants of VARIANTS) {
      const query = { name, birthDate: '1970-01-01', country: 'IR' };
      const together = index.screenVariants(query, variants);
      assert.equal(together.length, variants.length);
      variants.forEach((options, i) => {
        assert.deepEqual(together[i], index.screen(query, options), `${name} under ${JSON.stringify(options)}`);
        reported += together[i]!.matches.length;
      });
    }
  }
  assert.ok(reported > 100, `the queries find matches (${reported})`);
});
