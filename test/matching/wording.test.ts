import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyRecord, type ListRecord, type NameKind } from '../../src/lists/model.js';
import { MatchingIndex } from '../../src/matching/index.js';
import { indefiniteArticle, withArticle } from '../../src/matching/wording.js';

test('indefinite article by the sound that follows', () => {
  assert.equal(withArticle('variation name'), 'a variation name');
  assert.equal(withArticle('alias'), 'an alias');
  assert.equal(withArticle('weak alias'), 'a weak alias');
  assert.equal(withArticle('organization'), 'an organization');
  assert.equal(withArticle('aircraft'), 'an aircraft');
  assert.equal(withArticle('person'), 'a person');
  assert.equal(withArticle('vessel'), 'a vessel');
  // spelt with a vowel, sounded with a consonant, and the reverse
  assert.equal(indefiniteArticle('user'), 'a');
  assert.equal(indefiniteArticle('European list'), 'a');
  assert.equal(indefiniteArticle('hour'), 'an');
  assert.equal(indefiniteArticle('honest mistake'), 'an');
  // abbreviations are read letter by letter: "an F-K-A name", "a UN listing", "an LLC"
  assert.equal(withArticle('fka name'), 'an fka name');
  assert.equal(withArticle('nka name'), 'an nka name');
  assert.equal(indefiniteArticle('UN listing'), 'a');
  assert.equal(indefiniteArticle('LLC'), 'an');
  assert.equal(indefiniteArticle('IMO number'), 'an');
});

test('explanation summaries use the right article for every kind of listed name', () => {
  const kinds: NameKind[] = ['aka', 'fka', 'nka', 'variation'];
  const records: ListRecord[] = kinds.map((kind, i) => ({
    ...emptyRecord('uk_csl', `k${i}`, 'person', `Primary Name${i}`),
    aliases: [{ name: `Zorbek Quillanov${i}`, kind, quality: 'strong' as const }],
  }));
  records.push({
    ...emptyRecord('us_ofac', 'w1', 'person', 'Other Person'),
    aliases: [{ name: 'Zorbek Quillanovw', kind: 'aka', quality: 'weak' }],
  });
  const idx = MatchingIndex.build(records);
  const summary = (name: string, id: string): string =>
    idx.screen({ name }, { floor: 0, maxMatches: 20 }).matches.find((m) => m.entity.id === id)!.explanation.summary;
  assert.match(summary('Zorbek Quillanov0', 'uk_csl:k0'), /^Matched an alias "/);
  assert.match(summary('Zorbek Quillanov1', 'uk_csl:k1'), /^Matched an fka name "/);
  assert.match(summary('Zorbek Quillanov2', 'uk_csl:k2'), /^Matched an nka name "/);
  assert.match(summary('Zorbek Quillanov3', 'uk_csl:k3'), /^Matched a variation name "/);
  assert.match(summary('Zorbek Quillanovw', 'us_ofac:w1'), /^Matched a weak alias "/);
  const typed = idx
    .screen({ name: 'Zorbek Quillanov3', entityType: 'organization' }, { floor: 0 })
    .matches.find((m) => m.entity.id === 'uk_csl:k3')!;
  assert.match(
    typed.explanation.corroboration.entityType!.detail,
    /^query is an organization, listed entry is a person$/,
  );
});

test('a score scaled for a single matched part says so, not that the parts are common', () => {
  const records: ListRecord[] = [{ ...emptyRecord('us_ofac', 's1', 'organization', 'SOLINVEST LTD') }];
  for (let i = 0; i < 300; i++) records.push(emptyRecord('eu_csl', `p${i}`, 'person', `Mohammad Filler${i}`));
  records.push(emptyRecord('eu_csl', 'm1', 'person', 'Mohammad ALI'));
  const idx = MatchingIndex.build(records);
  const single = idx.screen({ name: 'Solinvest Ltd' }).matches[0]!;
  assert.ok(single.explanation.distinctiveness < 1);
  assert.match(single.explanation.summary, /a single name part matched, score scaled by \d+%/);
  const common = idx.screen({ name: 'Mohammad Ali' }, { floor: 0 }).matches.find((m) => m.entity.id === 'eu_csl:m1')!;
  assert.match(common.explanation.summary, /common name parts, score scaled by \d+%/);
});
