import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyRecord, type ListRecord } from '../../src/lists/model.js';
import { MatchingIndex, MEDIUM_BOUNDARY } from '../../src/matching/index.js';
import { normalizeName } from '../../src/matching/normalize.js';
import { phoneticKey, spellingFold } from '../../src/matching/similarity.js';
import { wadeGiles, wadeGilesSpells, wadeGilesSpellsSyllable } from '../../src/matching/wade-giles.js';
import { type ScoredPart, partSimilarity } from '../../src/matching/part-similarity.js';

const texts = (name: string, person?: boolean): string[] => normalizeName(name, person).parts.map((p) => p.text);

// Enough rows for part weights to behave as on real lists (common given names weigh little).
function filler(): ListRecord[] {
  const out: ListRecord[] = [];
  const given = ['Mohammad', 'Ali', 'Abdul', 'Jean'];
  const family = ['Rahimi', 'Karimi', 'Nouri', 'Sadeghi'];
  let i = 0;
  for (const g of given)
    for (const f of family)
      for (let k = 0; k < 40; k++) out.push({ ...emptyRecord('eu_csl', `f${i++}`, 'person', `${g} ${f}${k}`) });
  for (let k = 0; k < 200; k++) out.push({ ...emptyRecord('us_csl', `c${k}`, 'organization', `Trading${k} Company`) });
  return out;
}
const idx = MatchingIndex.build(filler());

test('a zero-width non-joiner stays inside its word (Persian)', () => {
  // پزشک‌فر (Pezeshkfar) is one word; read as two, its second half was lost as an abbreviation.
  assert.equal(normalizeName('پزشک‌فر', true).parts.length, 1);
  assert.deepEqual(texts('مسعود پزشک‌فر', true), texts('مسعود پزشکفر', true));
  assert.ok(idx.scorePair('مسعود پزشک‌فر', 'مسعود پزشکیان', 'person') < MEDIUM_BOUNDARY);
});

test('Cyrillic -ий / -ый written -ij / -yj (German, Polish, Czech romanization)', () => {
  assert.equal(phoneticKey('selenskyj'), phoneticKey('zelenskyy'));
  assert.equal(spellingFold('selenskyj'), spellingFold('selenskiy'));
  assert.equal(spellingFold('yurij'), spellingFold('yuriy'));
  // a final j after another letter is a consonant (Manoj, Raj)
  assert.notEqual(phoneticKey('manoj'), phoneticKey('mano'));
  assert.ok(idx.scorePair('Wolodymyr Selenskyj', 'Volodymyr Zelenskyy', 'person') >= MEDIUM_BOUNDARY);
});

test('the Arabic article in a joined name takes any vowel (Abd al-, Abdel, Abdul)', () => {
  assert.ok(idx.scorePair("'Abd al-Aziz al-Nuristani", 'Abdul Aziz Nooristani', 'person') >= MEDIUM_BOUNDARY);
  assert.ok(idx.scorePair('Abdel Rahman', 'Abdulrahman', 'person') >= MEDIUM_BOUNDARY);
  // only the article's vowel: another vowel elsewhere is another name
  assert.ok(idx.scorePair('Abdel Rahman', 'Abdelrohman', 'person') < MEDIUM_BOUNDARY);
});

test('initials written together and acronyms of organizations', () => {
  assert.ok(idx.scorePair('JC Juncker', 'Jean-Claude Juncker', 'person') >= MEDIUM_BOUNDARY);
  assert.ok(idx.scorePair('Jean-Claude Juncker', 'JC Juncker', 'person') >= MEDIUM_BOUNDARY);
  assert.ok(idx.scorePair('JK Juncker', 'Jean-Claude Juncker', 'person') < MEDIUM_BOUNDARY);
  assert.ok(idx.scorePair('PLA', 'People’s Liberation Army', 'organization') >= MEDIUM_BOUNDARY);
  assert.ok(idx.scorePair('PLO', 'People’s Liberation Army', 'organization') < MEDIUM_BOUNDARY);
  // a listed acronym is not read against the words of a query: any three words spell one
  assert.ok(idx.scorePair('People’s Liberation Army', 'PLA', 'organization') < MEDIUM_BOUNDARY);
  const list = MatchingIndex.build([{ ...emptyRecord('us_ofac', 'a1', 'organization', 'GKR Trading') }, ...filler()]);
  assert.ok(
    !list
      .screen({ name: 'Gary Kenneth Robbins Trading' })
      .matches.some((m) => m.entity.id === 'us_ofac:a1' && m.explanation.alignment.some((a) => a.how === 'initial')),
  );
});

test('a generational suffix is dropped, not read as initials', () => {
  assert.deepEqual(texts('Ramon Andrade, Jr.', true), ['ramon', 'andrade']);
  assert.ok(idx.scorePair('Josefa Ruy Andrade', 'Ramon Andrade, Jr.', 'person') < MEDIUM_BOUNDARY);
});

test('a digit at the end of a word is a serial mark, not a letter', () => {
  // (the number comes off the word: AHL1 is AHL 1, as SONG6 is SONG 6)
  assert.deepEqual(
    normalizeName('Trust 2007-AHL1', false).parts.map((p) => `${p.text}/${p.kind}`),
    ['trust/word', '2007/number', 'ahl/word', '1/number'],
  );
  assert.deepEqual(texts('Igor Sech1n', true), ['igor', 'sechin']);
  // tranches AHL1 / AHL2: another member of a series (a review, never high), not two unrelated words
  const s = idx.scorePair(
    'Citigroup Mortgage Loan Trust 2007-AHL1',
    'Citigroup Mortgage Loan Trust 2007-AHL2',
    'organization',
  );
  assert.ok(s >= MEDIUM_BOUNDARY && s < 80, `${s}`);
});

test('o/u and e/i swapped inside a word are one name; other vowels and one-syllable parts are not', () => {
  const sim = (a: string, b: string): number => idx.scorePair(a, b, 'person');
  assert.ok(sim('Osama Hamdani', 'Usama Hamdani') >= 80);
  assert.ok(sim('Ebrahim Laden', 'Ibrahim Ladin') > sim('Ebrahim Laden', 'Ibrahim Lodan'));
  assert.ok(sim('Shane Hamdani', 'Shine Hamdani') < sim('Osama Hamdani', 'Usama Hamdani'));
  // a one-syllable part: another vowel is another syllable (Zhong / Zhang)
  assert.ok(sim('Zhong Hamdani', 'Zhang Hamdani') < sim('Osama Hamdani', 'Usama Hamdani'));
});

test('particles in a listed name are not counted as missing names', () => {
  // bin / ibn link a chain of ancestors: two missing names (Muhammad, Awad), not four
  const chain = idx.scorePair('Usama bin Ladin', 'Usama bin Muhammad ibn Awad ibn Ladin', 'person');
  const bare = idx.scorePair('Usama bin Ladin', 'Usama bin Muhammad Awad Ladin', 'person');
  assert.ok(chain >= bare - 3, `${chain} / ${bare}`);
  assert.ok(
    idx.scorePair('Usama Ladin', 'Usama de Muhammad Awad Ladin', 'person') >=
      idx.scorePair('Usama Ladin', 'Usama Muhammad Awad Ladin', 'person') - 3,
  );
  // three missing names are a longer, different name
  assert.ok(idx.scorePair('Usama Ladin', 'Usama Muhammad Awad Salim Ladin', 'person') < bare - 10);
});

test('a part one slip away from a listed part is not read as two glued words', () => {
  const listed = MatchingIndex.build([
    { ...emptyRecord('us_ofac', 'g1', 'organization', 'Microsoft Corporation') },
    { ...emptyRecord('us_ofac', 'g2', 'organization', 'Macro Trading') },
    { ...emptyRecord('us_ofac', 'g3', 'organization', 'Soft Systems') },
    { ...emptyRecord('eu_csl', 'g4', 'organization', 'JSC RAWENSTVO') },
    ...filler(),
  ]);
  // "macrosoft" is "macro" + "soft", both listed, but one letter from "microsoft"
  const top = listed.screen({ name: 'Macrosoft Corporation' }).matches[0];
  assert.equal(top?.entity.id, 'us_ofac:g1');
  // a legal form glued to a listed part still comes off
  assert.equal(listed.screen({ name: 'JSCrawenstvo' }).matches[0]?.entity.id, 'eu_csl:g4');
  // in a pair check, the listed name counts as listed
  assert.ok(
    idx.scorePair('UnitedWealth Group', 'UnitedHealth Group', 'organization') >
      idx.scorePair('United Wealth Group', 'UnitedHealth Group', 'organization'),
  );
});

test('Wade-Giles and Pinyin spellings of one Mandarin name', () => {
  assert.ok(wadeGiles('hsi')!.pinyin.includes('xi'));
  assert.ok(wadeGiles('tzu')!.pinyin.includes('zi'));
  assert.ok(wadeGilesSpells(['chin', 'ping'], 'jinping'));
  assert.ok(wadeGilesSpells(['tse', 'tung'], 'zedong'));
  assert.ok(wadeGilesSpells(['hsiao', 'ping'], 'xiaoping'));
  // syllables Pinyin spells too do not make a name Wade-Giles (Tan / Dan, Ping / Bing)
  assert.equal(wadeGilesSpells(['tan'], 'dan'), false);
  assert.equal(wadeGilesSpells(['ping'], 'bing'), false);
  assert.equal(wadeGiles('smith'), undefined);
  assert.ok(idx.scorePair('Mao Tse-tung', 'Mao Zedong', 'person') >= MEDIUM_BOUNDARY);
  assert.ok(idx.scorePair('Hsi Chin-ping', 'Xi Jinping', 'person') >= MEDIUM_BOUNDARY);
  assert.ok(idx.scorePair('Teng Hsiao-ping', 'Deng Xiaoping', 'person') >= MEDIUM_BOUNDARY);
  // another given name is still another name
  assert.ok(idx.scorePair('Mao Tse-min', 'Mao Zedong', 'person') < MEDIUM_BOUNDARY);
});

test('Amir and Emir are given names, not titles to drop', () => {
  assert.deepEqual(texts('Amir Abdullah', true), ['amir', 'abdullah']);
  assert.deepEqual(texts('Emir Kusturica', true), ['emir', 'kusturica']);
  // true titles still go
  assert.deepEqual(texts('Sheikh Amir Abdullah', true), ['amir', 'abdullah']);
  assert.ok(
    idx.scorePair('Amir Sayyid Abdullah', 'Amir Abdullah', 'person') >
      idx.scorePair('Karim Sayyid Abdullah', 'Amir Abdullah', 'person'),
  );
});

test('a title stands before a name: after it, or as the surname of "LAST, First", the word is a name', () => {
  assert.deepEqual(texts('King Abdullah', true), ['abdullah']);
  assert.deepEqual(texts('Damon King', true), ['damon', 'king']);
  assert.deepEqual(texts('John Major'), ['john', 'major']);
  assert.deepEqual(texts('KING, Martin Luther', true), ['king', 'martin', 'luther']);
  assert.deepEqual(texts('AL-ZAWAHIRI, Dr. Ayman', true), ['al', 'zawahiri', 'ayman']);
  // abbreviations are dropped wherever they stand
  assert.deepEqual(texts('Noureddine Belkassem Dr', true), ['noureddine', 'belkassem']);
  assert.deepEqual(texts('President Vladimir Putin'), ['vladimir', 'putin']);
});

test('the one-syllable Wade-Giles check agrees with the general one', () => {
  const syllables = [
    'hsi',
    'tzu',
    'chin',
    'ping',
    'mao',
    'tse',
    'tung',
    'chih',
    'ssu',
    'jen',
    'tan',
    'hsu',
    'kuo',
    'erh',
    'lien',
  ];
  const pinyin = [
    'xi',
    'zi',
    'jin',
    'qin',
    'ping',
    'bing',
    'mao',
    'ze',
    'ce',
    'dong',
    'zhi',
    'si',
    'ren',
    'dan',
    'xu',
    'guo',
    'er',
    'lian',
    'tan',
  ];
  let agreed = 0;
  for (const s of syllables) {
    for (const p of pinyin) {
      assert.equal(wadeGilesSpellsSyllable(s, p), wadeGilesSpells([s], p), `${s} / ${p}`);
      if (wadeGilesSpellsSyllable(s, p)) agreed++;
    }
  }
  assert.ok(agreed >= 5, `${agreed} pairs spelled`);
});

test('a part written backwards is a doubtful variant', () => {
  const part = (text: string): ScoredPart => ({ text, kind: 'word', pk: phoneticKey(text), idf: 5 });
  assert.equal(partSimilarity(part('amir'), part('rima')).s, 0.9);
  assert.equal(partSimilarity(part('kadyrov'), part('voryda')).s, 0);
  assert.notEqual(partSimilarity(part('amir'), part('rimo')).s, 0.9);
});
