import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BIRTH_EXACT, COUNTRY_AGREES, COUNTRY_CONTRADICTS } from '../../src/matching/corroboration.js';
import { HIGH_BOUNDARY, MEDIUM_BOUNDARY } from '../../src/matching/levels.js';
import {
  NAME_ALONE_CONFIDENCE,
  confidenceOf,
  listRaise,
  rankRows,
  runnerUpPenalty,
  type RowScore,
} from '../../src/matching/ranking.js';
import {
  DISTINCTIVE_INFORMATION,
  NUMBER_CONFLICT_CAP,
  WEAK_ALIAS_FACTOR,
  corroborate,
  distinctiveness,
  nameFloor,
  scoreName,
} from '../../src/matching/scoring.js';

const distinctive = { score: 0.9, information: DISTINCTIVE_INFORMATION + 1, numberConflict: false };

test('name score: the similarity of a distinctive name, scaled for common parts, weak aliases and other numbers', () => {
  assert.equal(scoreName(distinctive, 'strong').score, 90);
  assert.equal(scoreName(distinctive, 'strong').distinctiveness, 1);
  assert.equal(scoreName(distinctive, 'weak').score, 90 * WEAK_ALIAS_FACTOR);
  // Half the information keeps about two thirds of the score, not half, and none keeps nothing.
  const half = scoreName({ ...distinctive, information: DISTINCTIVE_INFORMATION / 2 }, 'strong');
  assert.ok(half.distinctiveness > 0.6 && half.distinctiveness < 0.7, String(half.distinctiveness));
  assert.equal(distinctiveness(0), 0);
  // Another member of a numbered series is a review, never high, however close the names.
  const numbered = scoreName({ score: 1, information: 20, numberConflict: true }, 'strong');
  assert.equal(numbered.score, NUMBER_CONFLICT_CAP);
  assert.ok(numbered.score < HIGH_BOUNDARY);
});

test('corroboration adds and takes points within 0..100, and counts each side', () => {
  const agree = { effect: BIRTH_EXACT, detail: 'same' };
  const country = { effect: COUNTRY_CONTRADICTS, detail: 'other' };
  assert.deepEqual(corroborate(70.04, { birthDate: agree, country }), {
    score: 72,
    corroborated: BIRTH_EXACT,
    contradicted: -COUNTRY_CONTRADICTS,
  });
  assert.equal(corroborate(95, { birthDate: agree, country: { effect: COUNTRY_AGREES, detail: '' } }).score, 100);
  assert.equal(corroborate(10, { entityType: { effect: -35, detail: '' } }).score, 0);
  assert.deepEqual(corroborate(64.96, {}), { score: 65, corroborated: 0, contradicted: 0 });
  // A name further below the floor than the fields can lift it is not worth working out.
  assert.ok(nameFloor(MEDIUM_BOUNDARY) <= MEDIUM_BOUNDARY - BIRTH_EXACT - COUNTRY_AGREES);
});

test('further lists raise the risk a little, two at most', () => {
  assert.deepEqual([1, 2, 3, 4, 9].map(listRaise), [0, 3, 6, 6, 6]);
});

test('the runner-up penalty falls as the best other party falls behind', () => {
  assert.deepEqual([0, 2.9, 3, 9.9, 10, 19.9, 20, 50].map(runnerUpPenalty), [15, 15, 8, 8, 3, 3, 0, 0]);
});

/** A listed name's parts, as ranking reads them (their texts). */
const parts = (name: string) => name.split(' ').map((text) => ({ text }));

function row(over: Partial<RowScore>): RowScore {
  return {
    score: 80,
    nameScore: 80,
    distinctiveness: 1,
    corroborated: 0,
    contradicted: 0,
    cluster: 0,
    source: 'un_csl',
    nameParts: parts('a b'),
    ...over,
  };
}

test('confidence: a name alone is never certain; fields that agree raise it, contradictions and a close runner-up lower it', () => {
  const exact = row({ score: 100, nameScore: 100 });
  assert.equal(confidenceOf(exact, 6, undefined), NAME_ALONE_CONFIDENCE);
  assert.equal(confidenceOf({ ...exact, corroborated: 14 }, 6, undefined), 100);
  const common = row({ nameScore: 70, score: 70, distinctiveness: 0.5 });
  const alone = confidenceOf(common, 1, undefined);
  assert.ok(alone < 50, String(alone));
  assert.equal(confidenceOf(common, 1, row({ score: 69, cluster: 1 })), Math.max(0, alone - 15));
  assert.equal(confidenceOf({ ...common, contradicted: 8 }, 1, undefined), alone - 8);
});

test('ranking: among equal scores the corroborated row leads; the party more lists carry can outweigh one row a little above it', () => {
  const bare = row({ cluster: 1, source: 'jp_mof' });
  const dated = row({ cluster: 2, corroborated: 3, source: 'uk_csl' });
  assert.equal(rankRows([bare, dated]).rows[0], dated);

  const single = row({ score: 83, nameScore: 83, cluster: 5, source: 'au_dfat', nameParts: parts('x y') });
  const listed = ['un_csl', 'uk_csl', 'us_ofac'] as const;
  const party = listed.map((source) => row({ score: 81, nameScore: 81, cluster: 7, source }));
  const ranked = rankRows([single, ...party]);
  assert.equal(ranked.rows[0]!.cluster, 7, 'the party on three lists leads');
  assert.equal(ranked.riskScore, 81 + listRaise(3));
  assert.ok(ranked.riskScore >= Math.max(...ranked.rows.map((r) => r.score)), 'the risk is never below the best match');
});

test('ranking: the same distinctive name on another list, unlinked, is not a runner-up; a common one is', () => {
  // The same parts in another order are the same name.
  const a = row({ cluster: 1, source: 'un_csl', nameParts: parts('rare name') });
  const b = row({ cluster: 2, source: 'uk_csl', nameParts: parts('name rare') });
  const sure = rankRows([a, b]).confidence;
  const common = rankRows([
    { ...a, distinctiveness: 0.6 },
    { ...b, distinctiveness: 0.6 },
  ]).confidence;
  // Linked by name, the second row is one more list (+5), not a rival (-15).
  assert.ok(sure - common >= 15, `${sure} vs ${common}`);
});
