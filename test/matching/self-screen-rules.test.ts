import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyRecord, type ListRecord } from '../../src/lists/model.js';
import { MatchingIndex } from '../../src/matching/index.js';

/** Every listed name must find its own listing (the validation report's self-screen, issue 31). */

function record(type: ListRecord['entityType'], id: string, name: string, aliases: string[] = []): ListRecord {
  return {
    ...emptyRecord('us_csl', id, type, name),
    aliases: aliases.map((alias) => ({ name: alias, quality: 'strong' as const, kind: 'aka' as const })),
  };
}

// Filler, so that word weights behave as on real lists (Denise and Leila are common given names in
// the population tables, rare on the lists).
function people(): ListRecord[] {
  const out: ListRecord[] = [];
  for (let k = 0; k < 200; k++) out.push(record('person', `p${k}`, `Mohammad Ali Rahimi${k}`));
  out.push(record('person', 'd1', 'Denise WALKER'));
  return out;
}

const ownScore = (index: MatchingIndex, name: string, type: ListRecord['entityType'], id: string) =>
  index.screen({ name, entityType: type }).matches.find((m) => m.entity.id === `us_csl:${id}`)?.matchScore ?? 0;

test('a Latin alias spelled like the kana rendering before it is still found', () => {
  const farhad = record('person', 'k1', 'FARHAD KANABI AHMAD', ['カワ・ハマワンディ', 'Kawa Hamawandi']);
  const index = MatchingIndex.build([...people(), farhad]);
  assert.ok(ownScore(index, 'Kawa Hamawandi', 'person', 'k1') >= 80);
});

test("a company or vessel named with a person's given name is found by its whole name", () => {
  const denise = record('organization', 'o1', 'Denise Company');
  const leila = record('vessel', 'v1', 'LADY LEILA');
  const index = MatchingIndex.build([...people(), denise, leila]);
  assert.ok(ownScore(index, 'Denise Company', 'organization', 'o1') >= 50);
  assert.ok(ownScore(index, 'LADY LEILA', 'vessel', 'v1') >= 50);
  // A person's name alone stays below medium against the company.
  assert.ok(ownScore(index, 'Denise', 'person', 'o1') < 50);
});

test('an aircraft registration mark is not read as a legal form with a slip', () => {
  const marks = ['EP-LDC', 'EP-IBN', 'EP-IEC'].map((mark, k) => record('aircraft', `a${k}`, mark));
  const index = MatchingIndex.build([...people(), ...marks]);
  const found = index.screen({ name: 'EP-LDC', entityType: 'aircraft' }).matches;
  assert.equal(found[0]?.entity.id, 'us_csl:a0');
});
