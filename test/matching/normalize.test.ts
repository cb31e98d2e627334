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
  // Devanagari: inherent vowel, virama conjuncts, word-final schwa dropped except after a conjunct
  assert.deepEqual(texts('व्लादिमीर पुतिन', true), ['vladimir', 'putin']);
  assert.deepEqual(texts('नरेन्द्र मोदी', true), ['narendra', 'modi']);
  // Ethiopic (Amharic, Tigrinya): consonant rows in seven vowel orders, the sixth mostly unwritten
  assert.deepEqual(texts('ዐቢይ አሕመድ', true), ['abiy', 'ahmed']);
  assert.deepEqual(texts('ኢሳያስ፡አፈወርቂ', true), ['isayas', 'afewerqi']);
  // Greek and Armenian digraphs (ου, ντ, ու)
  assert.deepEqual(texts('Βλαντίμιρ Πούτιν', true), ['vladimir', 'putin']);
  assert.deepEqual(texts('Վլադիմիր Պուտին', true), ['vladimir', 'putin']);
  // Hebrew vav: a consonant first in a word and doubled, a vowel elsewhere
  assert.deepEqual(texts('ולדימיר פוטין', true), ['vldimir', 'potin']);
  assert.deepEqual(texts('דווידוב', true), ['dvidov']);
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
  assert.deepEqual(
    normalizeName('Victory 3 Corp', false).parts.map((p) => p.kind),
    ['word', 'number', 'legal'],
  );
  // a number that is the only distinctive part is matched as a word
  assert.deepEqual(
    normalizeName('11420 Corp', false).parts.map((p) => p.kind),
    ['word', 'legal'],
  );
  assert.deepEqual(texts('Brigade Forty-Four', false), ['brigade', '44']);
  assert.deepEqual(texts('Solutions II', false), ['solutions', '2']);
});

test('glued and misspelled legal forms, roman numerals of organizations', () => {
  assert.deepEqual(texts('PROISTOKooo', false), ['proistok', '@llc']);
  assert.deepEqual(texts('HARDBERRY LIMITED LIABILITYcompany', false), ['hardberry', '@llc']);
  assert.deepEqual(texts('Stanki Limited Liabilty Company', false), texts('Stanki LLC', false));
  assert.deepEqual(texts('Public Joint Stock Company Alrosa', false), ['@pjsc', 'alrosa']);
  assert.deepEqual(texts('Societatea cu Răspundere Limitată PRO TRAFFIC', false), texts('SRL PRO TRAFFIC', false));
  assert.deepEqual(texts('Blackstone Partners V', false), ['blackstone', 'partners', '5']);
  // for a person a single letter is an initial, not a numeral
  assert.equal(normalizeName('Vladimir V Putin', true).parts[1]!.kind, 'initial');
  assert.equal(normalizeName('Vladimir V Putin', undefined).parts[1]!.kind, 'initial');
});

test('script of a transliterated name: abjad scripts are marked apart', () => {
  assert.equal(normalizeName('محمد علي', true).parts[0]!.translit, 'abjad');
  assert.equal(normalizeName('משה', true).parts[0]!.translit, 'abjad');
  assert.equal(normalizeName('Путин', true).parts[0]!.translit, 'alphabet');
  assert.equal(normalizeName('Putin', true).parts[0]!.translit, undefined);
});

test('Khmer: a consonant before another carries its inherent vowel; the musikatoan makes ប a p', () => {
  const words = (n: string): string =>
    normalizeName(n, true)
      .parts.map((p) => p.text)
      .join(' ');
  assert.equal(words('ប៉ុល ពត'), 'pol pot');
  assert.equal(words('ខៀវ សំផន'), 'khiev samphan');
  // A written vowel, a final consonant and a consonant stacked under another take none.
  assert.equal(words('នួន ជា'), 'nuon cha');
  assert.equal(words('ភ្នំពេញ'), 'phnampenh');
});

test('a company name read as legal forms alone keeps its abbreviation as a word', () => {
  assert.deepEqual(texts('TBK JSC', false), ['tbk', '@jsc']);
  assert.deepEqual(texts('PTE OOO', false), ['pte', '@llc']);
  // Forms written before the name stay first.
  assert.deepEqual(texts('АО “ТБК”', false), ['@jsc', 'tbk']);
  // One legal form alone is still a form; a name with a word reads as before.
  assert.deepEqual(texts('Акционерное общество', false), ['@jsc']);
  assert.deepEqual(texts('Siemens AG', false), ['siemens', '@ag']);
});
