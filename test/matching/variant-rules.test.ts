// Rules for the ways a listed name comes back changed: transliterated back from Cyrillic, glued,
// with a slip, its words in another order, its legal form broken up. Each test names what it guards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyRecord, type ListRecord } from '../../src/lists/model.js';
import { MatchingIndex, MEDIUM_BOUNDARY } from '../../src/matching/index.js';
import { legalSlip } from '../../src/matching/legal-forms.js';
import { normalizeName } from '../../src/matching/normalize.js';
import { phoneticKey, spellingFold } from '../../src/matching/similarity.js';

const texts = (name: string, person?: boolean): string[] => normalizeName(name, person).parts.map((p) => p.text);
/** The parts that take part in a comparison (legal forms do not). */
const content = (name: string, person?: boolean): string[] =>
  normalizeName(name, person)
    .parts.filter((p) => p.kind !== 'legal')
    .map((p) => p.text);

function person(id: string, name: string): ListRecord {
  return { ...emptyRecord('un_csl', id, 'person', name) };
}
function org(id: string, name: string): ListRecord {
  return { ...emptyRecord('us_ofac', id, 'organization', name) };
}

// Enough rows for part weights to behave as on real lists.
function filler(): ListRecord[] {
  const out: ListRecord[] = [];
  const given = ['Mohammad', 'Ali', 'Abdul', 'Jean'];
  const family = ['Rahimi', 'Karimi', 'Nouri', 'Sadeghi'];
  let i = 0;
  for (const g of given)
    for (const f of family)
      for (let k = 0; k < 40; k++) out.push(person(`f${i++}`, `${g} ${f}${String.fromCharCode(97 + (k % 26))}${k}`));
  for (let k = 0; k < 200; k++) out.push(org(`c${k}`, `Trading${k} Company`));
  return out;
}
const listed = [
  person('q1', 'Saif al-Islam QADHAFI'),
  person('j1', 'Joseph KONY'),
  person('d1', 'DJAMEL Akkacha'),
  person('x1', 'QIN, Xutong'),
  person('s1', "SA'D, Muhammad Hasan"),
  person('k1', "KO, Ch'o'l-Chae"),
  person('r1', 'AL-AZHAR BEN KHALIFA BEN AHMED ROUINE'),
  person('n1', 'Andrei Konstantinovich NEKRASHEVICH'),
  person('h1', 'SAYYED Mohammed HAQQANI'),
  person('h2', 'Hajizadeh KARIMOV'),
  person('h3', 'Jaber AL-JALAHMAH'),
  org('l1', 'LOBAYE INVEST'),
  org('v1', 'BICENTENARIO XV'),
  org('o1', 'LIMITED LIABILITY COMPANY STEKLOMASH'),
  org('o2', 'PUBLIC JOINT STOCK COMPANY POLYUSTRANS'),
  org('o3', 'OBSHCHESTVO S OGRANICHENNOI OTVETSTVENNOSTYU PERITONIKA'),
];
const idx = MatchingIndex.build([...listed, ...filler()]);
const found = (query: string, id: string): number => {
  const m = idx
    .screen({ name: query }, { floor: 0, maxMatches: 50 })
    .matches.find((x) => x.entity.id.endsWith(`:${id}`));
  return m?.matchScore ?? 0;
};

test('Latin h written as Cyrillic х comes back as kh: dh, gh, ph, th still fold with their Latin spelling', () => {
  assert.equal(spellingFold('kadkhafi'), spellingFold('qadhafi'));
  assert.equal(spellingFold('dzhosepkh'), spellingFold('joseph'));
  assert.equal(spellingFold('gkhasemzadekh'), spellingFold('ghasemzadeh'));
  assert.ok(found('Кадхафи Саиф ал Ислам', 'q1') >= MEDIUM_BOUNDARY);
  assert.ok(found('Джосепх Конй', 'j1') >= MEDIUM_BOUNDARY);
  // a name with many an h grows a letter each, beyond the lengths a slip could explain
  assert.ok(found('Джабер ал Джалахмах', 'h3') >= MEDIUM_BOUNDARY);
  assert.ok(found('dzhaber al dzhalakhmakh', 'h3') >= MEDIUM_BOUNDARY);
  // the h is still a letter: Askhab (Ashab) is not Asab
  assert.notEqual(spellingFold('askhab'), spellingFold('asab'));
});

test('a doubled consonant before a digraph, and x as ks', () => {
  assert.equal(spellingFold('ddzhamel'), spellingFold('djamel'));
  assert.equal(phoneticKey('ddzhamel'), phoneticKey('djamel'));
  assert.equal(spellingFold('ksutong'), spellingFold('xutong'));
  assert.equal(spellingFold('maksim'), spellingFold('maxim'));
  // doubled vowels stay digraphs (Ameen / Amin)
  assert.equal(spellingFold('ameen'), spellingFold('amin'));
  // Italian cch is k, not ch
  assert.notEqual(phoneticKey('bocchino'), phoneticKey('bochino'));
  assert.ok(found('Дджамел Аккача', 'd1') >= MEDIUM_BOUNDARY);
  assert.ok(found('Кин Ксутонг', 'x1') >= MEDIUM_BOUNDARY);
});

test('a letter standing alone after a part joins it (an apostrophe written as a space), an initial before one does not', () => {
  assert.ok(idx.scorePair('Sa d Muhammad Hasan', "SA'D, Muhammad Hasan", 'person') >= 80);
  assert.ok(idx.scorePair('Ko Ch o l Chae', "KO, Ch'o'l-Chae", 'person') >= MEDIUM_BOUNDARY);
  assert.ok(
    idx.scorePair('D Jamel Akkacha', 'DJAMEL Akkacha', 'person') <
      idx.scorePair('Djamel Akkacha', 'DJAMEL Akkacha', 'person') - 10,
  );
});

test('a "bin" left out is not a swap of own and father\'s names; a true swap still is', () => {
  assert.ok(found('AL-AZHAR KHALIFA BEN AHMED ROUINE', 'r1') >= MEDIUM_BOUNDARY);
  assert.ok(
    idx.scorePair('Salman bin Muhammad Rouine', 'Muhammad bin Salman Rouine', 'person') <
      idx.scorePair('Muhammad bin Salman Rouine', 'Muhammad bin Salman Rouine', 'person') / 2,
  );
});

test('a given name glued to a patronymic is split like any glued pair', () => {
  assert.equal(found('Andreikonstantinovich NEKRASHEVICH', 'n1'), found('Andrei Konstantinovich NEKRASHEVICH', 'n1'));
});

test('a religious title written onto the name after it comes off, as it does written apart', () => {
  // The lists write the title apart ("SAYYED Mohammed"), and pairs of listed words side by side are
  // in the vocabulary as one token: the glued title is still dropped, not compared with the name.
  assert.ok(found('SAYYEDmohammed HAQQANI', 'h1') >= MEDIUM_BOUNDARY);
  assert.ok(found('HAJImohammed HAQQANI', 'h1') >= MEDIUM_BOUNDARY);
  assert.equal(found('SAYYEDmohammed HAQQANI', 'h1'), found('Sayyed Mohammed Haqqani', 'h1'));
  // A name the lists hold whole, and the tail of a compound name, stay whole (Hajizadeh, Hafizullah).
  assert.equal(found('Hajizadeh Karimov', 'h2'), found('HAJIZADEH KARIMOV', 'h2'));
  assert.ok(found('Hajizadeh Karimov', 'h2') >= MEDIUM_BOUNDARY);
});

test('a short legal form is not split off a word one slip from a listed part', () => {
  // "Ivnest" is Invest with two letters swapped, not "Ivn" + "Est" (establishment)
  assert.ok(found('LOBAYE IVNEST', 'l1') >= MEDIUM_BOUNDARY);
});

test('a number glued to a word, dotted legal forms glued to words, a numeral first', () => {
  assert.deepEqual(texts('JI SONG6'), ['ji', 'song', '6']);
  assert.deepEqual(texts('Rahimi1', true), ['rahimi', '1']);
  assert.deepEqual(texts('ARIZONAs.a.', false), ['arizona', '@sa']);
  assert.deepEqual(texts('KARNER D.O.O.ljubljana', false), ['karner', '@llc', 'ljubljana']);
  assert.deepEqual(texts('HODROJ EXCHANGE S.A.R.L', false), ['hodroj', 'exchange', '@llc']);
  assert.deepEqual(texts('XV BICENTENARIO'), ['15', 'bicentenario']);
  assert.equal(found('XV BICENTENARIO', 'v1'), found('BICENTENARIO XV', 'v1'));
  // a name or an initial first is no numeral
  assert.deepEqual(texts('Xi Jinping'), ['xi', 'jinping']);
  assert.deepEqual(texts('V Putin'), ['v', 'putin']);
});

test('multi-word legal forms with a slip, missing spaces, or their words out of order', () => {
  assert.deepEqual(content('JONIT STOCK COMPANY AVRORA', false), ['avrora']);
  assert.deepEqual(content('LIMITED LIABILITY PARTERSHIP DA GROUP', false), ['da', 'group']);
  assert.deepEqual(content('OBSHCHESTVO Sogranichennoi OTVETSTVENNOSTYU FAM', false), ['fam']);
  assert.deepEqual(content('OBSHCHESTVO S OGRANICHENNOI OTVETSTVENNOSTYUkorporatsiya AIPI', false), [
    'korporatsiya',
    'aipi',
  ]);
  assert.deepEqual(content('RPPlimited LIABILITY COMPANY', false), ['rpp']);
  assert.deepEqual(content('WEST SIBERIAN BANKpublic JOINT STOCK COMPANY', false), ['west', 'siberian', 'bank']);
  assert.deepEqual(content('LIABILITY COMPANY STEK LIMITED', false), ['stek']);
  assert.deepEqual(content('S OGRANICHENNOI OTVETSTVENNOSTYU PERITON OBSHCHESTVO', false), ['periton']);
  assert.deepEqual(content('JOINT STOCK COMPANY POLYUS PUBLIC', false), ['polyus']);
  assert.deepEqual(content('STOCK COMPANY GENBANK JOINT', false), ['genbank']);
  assert.deepEqual(content('OPEN J.S.C. MUROMTEPLOVOZ', false), ['muromteplovoz']);
  // ordinary words stay words: no legal form beside them, or the Russian "s" not before its form
  assert.deepEqual(content('Australian Open', false), ['australian', 'open']);
  assert.deepEqual(content('Open Society Foundation', false), ['open', 'society', 'foundation']);
  assert.deepEqual(content('S 7 Engineering LLC', false), ['s', '7', 'engineering']);
  assert.deepEqual(content('Stock, John', true), ['stock', 'john']);
  assert.equal(
    found('LIABILITY COMPANY STEKLOMASH LIMITED', 'o1'),
    found('LIMITED LIABILITY COMPANY STEKLOMASH', 'o1'),
  );
  assert.equal(
    found('JOINT STOCK COMPANY POLYUSTRANS PUBLIC', 'o2'),
    found('PUBLIC JOINT STOCK COMPANY POLYUSTRANS', 'o2'),
  );
  assert.equal(
    found('S OGRANICHENNOI OTVETSTVENNOSTYU PERITONIKA OBSHCHESTVO', 'o3'),
    found('OBSHCHESTVO S OGRANICHENNOI OTVETSTVENNOSTYU PERITONIKA', 'o3'),
  );
  assert.ok(
    found('PUBLIC JONIT STOCK COMPANY POLYUSTRANS', 'o2') >= found('PUBLIC JOINT STOCK COMPANY POLYUSTRANS', 'o2') - 1,
  );
});

test("a typo's many rare phonetic neighbours do not crowd out its one right partner among the candidates", () => {
  // 150 listed words with the consonants of "Faysial" (F-S-L), each in one record, so each is rarer than
  // Faysal, which 20 records carry: ranked by their own rarity they filled every candidate place.
  const rare: ListRecord[] = [];
  for (const f of ['f', 'v', 'w'])
    for (const a of 'aeiou')
      for (const s of ['s', 'z']) for (const b of 'aeiou') rare.push(person(`r${rare.length}`, `${f}${a}${s}${b}l`));
  const common = Array.from({ length: 20 }, (_, k) => person(`c${k}`, `Faysal Trading${String.fromCharCode(97 + k)}`));
  const list = MatchingIndex.build([person('t1', 'Abu Faysal'), ...rare, ...common, ...filler()]);
  // (The weights of a list this small keep the score itself low; what matters is that it is found, first.)
  assert.equal(list.screen({ name: 'Abu Faysial' }, { floor: 0 }).matches[0]?.entity.id, 'un_csl:t1');
});

test('a known name that only resembles the listed one, with listed names missing besides, is another person', () => {
  const list = MatchingIndex.build([
    person('m1', 'QUINTANA ARIZMENDI, Maria Teresa'),
    person('m2', 'Martina GOMEZ'),
    person('m3', 'Larry PAGE'),
    ...filler(),
  ]);
  const pair = (q: string, l: string): number => list.scorePair(q, l, 'person');
  // Martina is a name the lists know: Martina Arizmendi is not Maria Teresa Quintana Arizmendi
  assert.ok(pair('Martina Arizmendi', 'QUINTANA ARIZMENDI, Maria Teresa') < MEDIUM_BOUNDARY - 20);
  // a slip makes a part the lists do not know, and the middle names left out cost what they did
  assert.ok(
    pair('Martna Arizmendi', 'QUINTANA ARIZMENDI, Maria Teresa') >
      pair('Martina Arizmendi', 'QUINTANA ARIZMENDI, Maria Teresa') + 15,
  );
  assert.ok(pair('Maria Arizmendi', 'QUINTANA ARIZMENDI, Maria Teresa') >= MEDIUM_BOUNDARY);
  // with nothing left over, the surname alone matched (Harry / Larry Page): one part of the name,
  // below review (see the weak pairs of precision-rules.test.ts); a slip of the surname is still put
  // to the analyst
  assert.ok(pair('Harry Page', 'Larry PAGE') < MEDIUM_BOUNDARY);
  assert.ok(pair('Martina Arizmendi', 'ARIZMENDI, Maria') < MEDIUM_BOUNDARY);
  assert.ok(pair('Larry Paige', 'Larry PAGE') >= MEDIUM_BOUNDARY);
});

test('a Russian name in the German or French romanization is read in the English one', () => {
  assert.deepEqual(texts('Sergej Wiktorowitsch Schoigu', true), ['sergey', 'viktorovich', 'shoigu']);
  assert.deepEqual(texts('Surkow Wladislaw', true), ['surkov', 'vladislav']);
  assert.deepEqual(texts('Dschabrail Alchasurowitsch Achmatow', true), ['dzhabrail', 'alkhasurovich', 'akhmatov']);
  assert.deepEqual(texts('Vladimir Vladimirovitch Poutine', true), ['vladimir', 'vladimirovich', 'putin']);
  assert.deepEqual(texts('Chipoulin Anton Vladimirovitch', true), ['shipulin', 'anton', 'vladimirovich']);
  // without a Russian patronymic or an -ow surname beside a German spelling, letters stay what they are
  assert.deepEqual(texts('Michael Schumacher', true), ['michael', 'schumacher']);
  assert.deepEqual(texts('Jose Maria Lopez', true), ['jose', 'maria', 'lopez']);
  assert.deepEqual(texts('Michel Poutine', true), ['michel', 'poutine']);
  assert.deepEqual(texts('CREDIT BANK OF MOSCOW PUBLIC JOINT STOCK COMPANY'), [
    'credit',
    'bank',
    'of',
    'moscow',
    '@pjsc',
  ]);
  // й after e written j (Sergej / Sergey), as after i and y
  assert.equal(spellingFold('sergej'), spellingFold('sergey'));
  assert.equal(phoneticKey('aleksej'), phoneticKey('alexey'));
});

test('a "son of" form first in a name, or last after the given names, is a surname; between them a patronymic', () => {
  const kinds = (name: string): string[] => normalizeName(name, true).parts.map((p) => `${p.text}/${p.kind}`);
  assert.deepEqual(kinds('MILOSEVIC, Slobodan'), ['milosevic/word', 'slobodan/word']);
  assert.deepEqual(kinds('Zvonko Veselinovic'), ['zvonko/word', 'veselinovic/word']);
  assert.deepEqual(kinds('Vladimir Vladimirovich Putin'), ['vladimir/word', 'vladimirovich/patronymic', 'putin/word']);
  assert.deepEqual(kinds('PUTIN, Vladimir Vladimirovich'), ['putin/word', 'vladimir/word', 'vladimirovich/patronymic']);
  // the daughter's forms are never surnames
  assert.deepEqual(kinds('Irina Anatolyevna'), ['irina/word', 'anatolyevna/patronymic']);
});

test('a legal form of three words or more with a slip in each word but one', () => {
  assert.deepEqual(content('JOITN SOTOCK COMPANY AVANGARD', false), ['avangard']);
  assert.deepEqual(content('PUBLC JOGNT STOCK COMPANY INTEGRAL', false), ['integral']);
  // a slip keeps the first letter; a legal form of two words takes one slip only
  assert.deepEqual(content('Point Stock Company', false), ['point']);
  assert.deepEqual(content('Sociedad Anonymous', false), ['sociedad', 'anonymous']);
});

test('the Arabic article written onto its word with a stray letter where the hyphen was', () => {
  const list = MatchingIndex.build([person('a1', "AL-MATAR, 'Abdu Tahir"), ...filler()]);
  const score = (q: string): number =>
    list.screen({ name: q }, { floor: 0 }).matches.find((m) => m.entity.id === 'un_csl:a1')?.matchScore ?? 0;
  assert.equal(score("ALkMATAR 'Abdu Tahir"), score("AL-MATAR 'Abdu Tahir"));
  // a word that only begins like the article is left alone
  assert.deepEqual(texts('Alexander', true), ['alexander']);
});

test('Arabic script: ʿayn at the start of a word carries its vowel (علي Ali, عمر Omar, عبد Abd), inside a word it is dropped', () => {
  assert.deepEqual(texts('علي عمر', true), ['aly', 'amr']);
  assert.deepEqual(texts('سعيد', true), ['syd']);
  // the article before a single letter is no article: الي is Ali spelt letter for letter
  assert.deepEqual(texts('الي السيسي', true), ['aly', 'al', 'sysy']);
  const pairs = MatchingIndex.build([person('a1', 'Omar ABDELRAHMAN'), ...filler()]);
  assert.ok(pairs.scorePair('عمر عبدالرحمن', 'Omar ABDELRAHMAN', 'person') >= MEDIUM_BOUNDARY);
});

test('Arabic script: parts joined in Latin are found by their consonant skeleton (عبد الرحمن / Abdulrahman)', () => {
  const pairs = MatchingIndex.build([person('a2', 'Abdulrahman KHALAF'), ...filler()]);
  assert.ok(pairs.scorePair('عبد الرحمن خلف', 'Abdulrahman KHALAF', 'person') >= MEDIUM_BOUNDARY);
  // Only from a script without short vowels: in Latin the joined parts must agree letter for letter or by spelling.
  assert.ok(
    pairs.scorePair('Abd Ul Rhmn Khalaf', 'Abdulrahman KHALAF', 'person') <
      pairs.scorePair('عبد الرحمن خلف', 'Abdulrahman KHALAF', 'person'),
  );
});

test('scripts without a table of their own are read through any-ascii, a run of letters at a time', () => {
  assert.deepEqual(texts('ವ್ಲಾದಿಮಿರ್ ಪುತಿನ್', true), ['vladimir', 'putin']); // Kannada: viramas and vowel signs in context
  assert.deepEqual(texts('ভ্লাদিমির পুতিন', true), ['bhladimir', 'putin']); // Bengali
  assert.deepEqual(texts('ប៉ុល ពត', true), ['pol', 'pot']); // Khmer, with the inherent vowels any-ascii leaves out (readKhmer)
  // Chinese characters outside the name table take their Mandarin reading (before: kept as they were).
  assert.deepEqual(texts('习近平', true), ['xi', 'jinping']);
  assert.equal(normalizeName('习近平', true).parts[0]!.translit, 'han');
});

test('Pinyin read from Chinese characters matches syllable for syllable: another syllable is another character', () => {
  const pairs = MatchingIndex.build([person('c1', 'CHEN, Jinping'), person('c2', 'XI, Jinping'), ...filler()]);
  assert.ok(pairs.scorePair('陈进平', 'CHEN, Jinping', 'person') >= MEDIUM_BOUNDARY);
  assert.ok(pairs.scorePair('习近平', 'XI, Jinping', 'person') >= MEDIUM_BOUNDARY);
  // 进兴 jinxing is one letter from jinping: a slip in Latin, another name in characters.
  assert.ok(pairs.scorePair('Chen Jinxing', 'CHEN, Jinping', 'person') >= MEDIUM_BOUNDARY);
  assert.ok(pairs.scorePair('陈进兴', 'CHEN, Jinping', 'person') < MEDIUM_BOUNDARY);
});

test('an abbreviated legal form with a slip at an end of a name is a legal form, unless the lists hold the word as a name part or it may be an acronym', () => {
  // OO is a Burmese name part, held by many listed names (more than a slip of a form ever is).
  const burmese = ['Mya Tun OO', 'Tin OO', 'Aung Min OO', 'Kyaw OO'].map((n, k) => person(`m${k}`, n));
  const pairs = MatchingIndex.build([
    org('s1', 'SOLINVEST LTD'),
    org('s2', 'LLC KRAFTTEK'),
    org('s3', 'PJSC POLYMETAL'),
    ...burmese,
    ...filler(),
  ]);
  for (const [query, name] of [
    ['SOLINVEST LD', 'SOLINVEST LTD'],
    ['SOLINVEST LzTD', 'SOLINVEST LTD'],
    ['LnLC KRAFTTEK', 'LLC KRAFTTEK'],
    ['PSJC POLYMETAL', 'PJSC POLYMETAL'],
  ] as const) {
    assert.ok(pairs.scorePair(query, name, 'organization') >= MEDIUM_BOUNDARY, query);
    assert.ok(
      pairs.screen({ name: query }).matches.some((m) => m.entity.name === name),
      query,
    );
  }
  assert.equal(legalSlip('lztd', false), '@ltd');
  assert.equal(legalSlip('ld', false), '@ltd');
  // First in a name, one letter replaced in a word of the form's length reads as an acronym.
  assert.equal(legalSlip('pla', true), undefined);
  assert.equal(legalSlip('pla', false), '@plc');
  // A word the lists know as a name part stays a name part (OO is one slip from OOO).
  assert.equal(legalSlip('oo', false), '@llc');
  assert.ok(pairs.screen({ name: 'Mya Tun OO' }).matches[0]!.explanation.alignment.some((a) => a.query === 'oo'));
});
