import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyRecord, type ListRecord } from '../../src/lists/model.js';
import { MatchingIndex, summarizeOutcome } from '../../src/matching/index.js';

const vessel = (source: ListRecord['source'], id: string, name: string): ListRecord => ({
  ...emptyRecord(source, id, 'vessel', name),
  identifiers: [{ type: 'imo', value: 'IMO 9123456' }],
  listingDate: '2022-03-01',
});
const idx = MatchingIndex.build([
  vessel('us_ofac', 'v1', 'OCEAN STAR'),
  vessel('eu_csl', 'v2', 'Ocean Star'),
  emptyRecord('un_csl', 'p1', 'person', 'Rustam Karimov'),
]);
const label = (source: string): string => `label of ${source}`;

test('the engine names lists by source id only; the caller labels them', () => {
  for (const groupByCluster of [false, true]) {
    const outcome = idx.screen({ name: 'Ocean Star' }, { groupByCluster });
    assert.ok(outcome.matches.length > 0);
    for (const m of outcome.matches) {
      assert.equal('datasetLabel' in m, false);
      for (const l of m.listings ?? []) assert.equal('datasetLabel' in l, false);
    }
  }
});

test('summarizeOutcome writes each label right after its source id, in matches and listings', () => {
  const plain = summarizeOutcome(idx.screen({ name: 'Ocean Star' }), label);
  const matches = JSON.parse(plain.matchesJson) as Record<string, unknown>[];
  assert.equal(matches.length, 2);
  for (const m of matches) {
    assert.deepEqual(Object.keys(m).slice(0, 3), ['dataset', 'datasetLabel', 'matchScore']);
    assert.equal(m.datasetLabel, label(m.dataset as string));
    assert.equal(Object.keys(m).at(-1), 'clusterId');
  }
  assert.deepEqual(plain.matchedSources.sort(), ['eu_csl', 'us_ofac']);

  const grouped = summarizeOutcome(idx.screen({ name: 'Ocean Star' }, { groupByCluster: true }), label);
  const [one] = JSON.parse(grouped.matchesJson) as { listings: Record<string, unknown>[] }[];
  assert.deepEqual(Object.keys(one!).slice(-2), ['listings', 'clusterId']);
  assert.equal(one!.listings.length, 2);
  for (const l of one!.listings) {
    assert.deepEqual(Object.keys(l), ['dataset', 'datasetLabel', 'entityId', 'name', 'programs', 'listingDate']);
    assert.equal(l.datasetLabel, label(l.dataset as string));
  }
  assert.equal(grouped.matchCount, 1);
});

test('no match: risk 0, low, no top entity, empty matches', () => {
  const none = summarizeOutcome(idx.screen({ name: 'Emily Johnson' }), label);
  assert.deepEqual(none, {
    riskScore: 0,
    riskLevel: 'low',
    confidence: 0,
    entityId: null,
    entityName: null,
    matchedSources: [],
    matchCount: 0,
    matchesJson: '[]',
  });
});
