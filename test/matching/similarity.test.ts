import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jaro, jaroWinkler, levenshtein, phoneticKey, spellingFold } from '../../src/matching/similarity.js';

const close = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-3, `${a} != ${b}`);

test('Jaro and Jaro-Winkler match the published reference values (Winkler 1990)', () => {
  close(jaroWinkler('martha', 'marhta'), 0.961);
  close(jaroWinkler('dwayne', 'duane'), 0.84);
  close(jaroWinkler('dixon', 'dicksonx'), 0.813);
  close(jaro('martha', 'marhta'), 0.944);
  assert.equal(jaroWinkler('abc', 'abc'), 1);
  assert.equal(jaroWinkler('abc', 'xyz'), 0);
});

test('Levenshtein distance', () => {
  assert.equal(levenshtein('kitten', 'sitting'), 3);
  assert.equal(levenshtein('flaw', 'lawn'), 2);
  assert.equal(levenshtein('', 'abc'), 3);
  assert.equal(levenshtein('same', 'same'), 0);
  // early exit reports "more than max"
  assert.ok(levenshtein('abcdefgh', 'zyxwvuts', 2) > 2);
});

test('phonetic key merges transliteration variants', () => {
  const same = (xs: string[]): void => assert.equal(new Set(xs.map(phoneticKey)).size, 1, xs.join('/'));
  same(['mohammed', 'muhammad', 'mohamad', 'mhmd']);
  same(['usama', 'osama']);
  same(['qaddafi', 'gaddafi', 'kadhafi']);
  same(['vladimir', 'wladimir']);
  assert.notEqual(phoneticKey('frederik'), phoneticKey('frank'));
});

test('spelling fold merges romanization variants and keeps different names apart', () => {
  const same = (a: string, b: string): void => assert.equal(spellingFold(a), spellingFold(b), `${a}/${b}`);
  same('yehya', 'iehia');
  same('saeed', 'said');
  same('khamavandi', 'hamawandi');
  same('dzhon', 'jon');
  same('hussein', 'husayn');
  same('abdullah', 'abdulla');
  // Cyrillic ё printed as е: Семён Semyon / Semen, Пётр Pyotr / Petr, Кён Kyong / Ken (a Korean name).
  same('semyon', 'semen');
  same('pyotr', 'petr');
  same('kyong', 'keng');
  same('yong', 'eng');
  same('youssef', 'yusef');
  assert.notEqual(spellingFold('yoon'), spellingFold('eon'));
  assert.notEqual(spellingFold('antonio'), spellingFold('antonia'));
  assert.notEqual(spellingFold('martin'), spellingFold('martina'));
});
