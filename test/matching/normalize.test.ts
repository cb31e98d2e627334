import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foldText, normalizeName } from '../../src/matching/normalize.js';

const texts = (name: string, person?: boolean): string[] => normalizeName(name, person).parts.map((p) => p.text);

test('NFKC, case folding and diacritics', () => {
  assert.equal(foldText('Vladímír ＰＵＴＩＮ'), 'vladimir putin');
  assert.equal(foldText('Łukasz Straße Øster'), 'lukasz strasse oster');
});

test('transliteration of non-Latin scripts', () => {
  assert.deepEqual(texts('Владимир Путин', true), ['vladimir', 'putin']);
  assert.deepEqual(texts('Путін Володимир', true), ['putin', 'volodimir']);
  assert.deepEqual(texts('Νικόλαος', true), ['nikolaos']);
  assert.deepEqual(texts('김정은', true), ['kim', 'jongun']);
  assert.deepEqual(texts('王伟', true), ['wang', 'wei']);
  assert.ok(texts('محمد علي', true).join(' ').startsWith('mhmd'));
  assert.deepEqual(texts('ვლადიმერ', true), ['vladimer']);
  assert.ok(normalizeName('Путин', true).parts[0]!.translit);
});

test('legal forms are canonical across languages and punctuation', () => {
  assert.deepEqual(texts('SIS d.o.o.', false), texts('SIS DOO', false));
  assert.deepEqual(texts('Gazprom OOO', false), texts('Gazprom LLC', false));
  assert.deepEqual(texts('Acme Limited Liability Company', false), texts('ACME L.L.C.', false));
  assert.deepEqual(texts('Acme Corp.', false), texts('Acme Corporation', false));
  assert.equal(normalizeName('JSC Tactical Missiles', false).parts[0]!.kind, 'legal');
});

test('honorifics dropped, initials, patronymics and numbers recognised', () => {
  assert.deepEqual(texts('President Vladimir Putin', true), ['vladimir', 'putin']);
  const n = normalizeName('V. Vladimirovich Putin', true).parts;
  assert.equal(n[0]!.kind, 'initial');
  assert.equal(n[1]!.kind, 'patronymic');
  assert.deepEqual(normalizeName('Victory 3 Corp', false).parts.map((p) => p.kind), ['word', 'number', 'legal']);
  // a number that is the only distinctive part is matched as a word
  assert.deepEqual(normalizeName('11420 Corp', false).parts.map((p) => p.kind), ['word', 'legal']);
  assert.deepEqual(texts('Brigade Forty-Four', false), ['brigade', '44']);
  assert.deepEqual(texts('Solutions II', false), ['solutions', '2']);
});
