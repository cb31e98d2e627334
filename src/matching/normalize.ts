/**
 * Name normalization: Unicode NFKC, case folding, transliteration to Latin, diacritics, punctuation,
 * then the split into name parts with what each part is (word, number, legal form, particle,
 * patronymic, initial). Honorifics and titles are dropped; legal forms in any language are
 * replaced by one canonical symbol each.
 */
import { isTransposition, levenshtein, withinOneSlip } from './similarity.js';
import { hasHan, hasNonLatin, transliterate } from './transliterate.js';

export type Translit = 'abjad' | 'han' | 'alphabet';

export type PartKind = 'word' | 'number' | 'legal' | 'particle' | 'patronymic' | 'initial';

export interface NamePart {
  /** Normalized Latin text of the part (for legal forms: the canonical symbol, e.g. `@llc`). */
  text: string;
  kind: PartKind;
  /**
   * The part was transliterated from a non-Latin script: `abjad` for scripts that leave short vowels
   * unwritten (Arabic, Persian, Urdu, Hebrew), where the consonant skeleton is all the evidence
   * there is; `han` for Chinese characters, read syllable by syllable into Pinyin, where a syllable
   * read otherwise is another character, not a slip; `alphabet` for the others (vowels written,
   * consonant classes still guessed).
   */
  translit?: Translit;
}

// Honorifics and titles, in the languages lists and customers write them. Dropped before matching.
const HONORIFICS = new Set(
  `mr mrs ms miss mister madam madame dr doctor prof professor sir dame lord lady hon honorable honourable
   rev reverend fr father sheikh shaikh sheik shaykh haji hajji hadji al-haj alhaj mullah mulla maulana maulvi mawlawi
   mawlavi qari hafiz imam ayatollah hojatoleslam sayed sayyed sayyid syed seyed
   general gen colonel col lieutenant lt major maj captain capt commander admiral brigadier sergeant
   president presidente prezident president prasident praesident predsjednik presedintele presiden elnok
   prime minister premier king queen prince princess his her excellency he
   herr frau monsieur senor senora sr sra don dona signor signora gospodin jr jnr snr`.split(/\s+/),
);

// Particles and connectors that carry little identity (weighted low, never required).
const PARTICLES = new Set(
  `al el ul bin ibn bint ben abu abou bou ould van von der den de del della di da das dos du la le los las
   y e und and et the of for und & a an mac`.split(/\s+/),
);

export function isParticle(t: string): boolean {
  return PARTICLES.has(t);
}

/** A word with a patronymic's ending (Vladimirovich, Ivanovna, Ogly), wherever it stands. */
export function isPatronymicForm(t: string): boolean {
  return t.length > 6 && PATRONYMIC.test(t);
}

export function isHonorific(t: string): boolean {
  return HONORIFICS.has(t);
}

/** A one-word legal form (LLC, OOO, GmbH, Ltd...). */
export function isLegalWord(t: string): boolean {
  return LEGAL_SINGLE.has(t);
}

/**
 * Legal forms across languages -> canonical symbol. Multi-word forms are matched on the
 * punctuation-free token sequence. Sources: ISO 20275 entity legal forms, common usage.
 */
const LEGAL_FORMS: [string, string][] = [
  ['limited liability company', '@llc'],
  ['limited liability partnership', '@llp'],
  ['obshchestvo s ogranichennoy otvetstvennostyu', '@llc'],
  ['obshestvo s ogranichennoi otvetstvennostiu', '@llc'],
  ['tovarishchestvo s ogranichennoy otvetstvennostyu', '@llc'],
  ['joint stock company', '@jsc'],
  ['joint-stock company', '@jsc'],
  ['public joint stock company', '@pjsc'],
  ['closed joint stock company', '@jsc'],
  ['open joint stock company', '@jsc'],
  ['aktsionernoye obshchestvo', '@jsc'],
  ['aktsionernoe obshchestvo', '@jsc'],
  ['publichnoye aktsionernoye obshchestvo', '@pjsc'],
  ['publichnoe aktsionernoe obshchestvo', '@pjsc'],
  ['public limited company', '@plc'],
  ['private limited company', '@ltd'],
  ['sp z o o', '@llc'],
  ['s p z o o', '@llc'],
  ['sp z oo', '@llc'],
  ['spolka z oo', '@llc'],
  ['spolka akcyjna', '@sa'],
  ['spolka z ograniczona odpowiedzialnoscia', '@llc'],
  ['d o o', '@llc'],
  ['s r o', '@llc'],
  ['s a r l', '@llc'],
  ['s r l', '@llc'],
  ['s l', '@llc'],
  ['s a', '@sa'],
  ['s p a', '@sa'],
  ['n v', '@nv'],
  ['b v', '@bv'],
  ['a g', '@ag'],
  ['a s', '@sa'],
  ['co ltd', '@ltd'],
  ['company limited', '@ltd'],
  ['pty ltd', '@ltd'],
  ['pvt ltd', '@ltd'],
  ['private limited', '@ltd'],
  ['l l c', '@llc'],
  ['l t d', '@ltd'],
  ['p l c', '@plc'],
  ['g m b h', '@llc'],
  ['gesellschaft mit beschrankter haftung', '@llc'],
  ['sociedad anonima', '@sa'],
  ['societe anonyme', '@sa'],
  ['sociedad limitada', '@llc'],
  ['aktiengesellschaft', '@ag'],
  ['incorporated', '@inc'],
  ['corporation', '@corp'],
  ['limited', '@ltd'],
  ['company', '@co'],
  ['societatea cu raspundere limitata', '@llc'],
  ['societate cu raspundere limitata', '@llc'],
  ['societate pe actiuni', '@sa'],
  ['sociedad de responsabilidad limitada', '@llc'],
  ['societe a responsabilite limitee', '@llc'],
  ['societa a responsabilita limitata', '@llc'],
  ['sociedade limitada', '@llc'],
  ['sociedade anonima', '@sa'],
  ['societa per azioni', '@sa'],
  ['societe par actions simplifiee', '@sa'],
  ['naamloze vennootschap', '@nv'],
  ['besloten vennootschap', '@bv'],
  ['spolecnost s rucenim omezenym', '@llc'],
  ['korlatolt felelossegu tarsasag', '@llc'],
  ['anonim sirketi', '@sa'],
  ['limited sirketi', '@llc'],
  ['akcionernoe obshchestvo', '@jsc'],
  ['aktsionernoe obshestvo', '@jsc'],
  ['zakrytoe aktsionernoe obshchestvo', '@jsc'],
  ['otkrytoe aktsionernoe obshchestvo', '@jsc'],
  ['obshchestvo s ogranichennoi otvetstvennostyu', '@llc'],
  ['obshchestvo s ogranichennoi otvetstvennostiu', '@llc'],
  ['obshchestvo s ogranichennoy otvetstvennostiu', '@llc'],
];
/** Abbreviations in organizations' names, written out (the usual English business abbreviations). */
const ABBREVIATIONS = new Map<string, string[]>(
  Object.entries({
    intl: ['international'],
    int: ['international'],
    natl: ['national'],
    govt: ['government'],
    dept: ['department'],
    univ: ['university'],
    assn: ['association'],
    assoc: ['association'],
    mfg: ['manufacturing'],
    bros: ['brothers'],
    hldgs: ['holdings'],
    hldg: ['holding'],
    grp: ['group'],
    svcs: ['services'],
    intern: ['international'],
    us: ['united', 'states'],
    usa: ['united', 'states'],
    uk: ['united', 'kingdom'],
    uae: ['united', 'arab', 'emirates'],
  }),
);

/** Multi-word forms by their first word, longest first. */
const LEGAL_BY_FIRST = new Map<string, [string[], string][]>();
for (const [form, sym] of LEGAL_FORMS) {
  const words = form.split(/[ -]/);
  const list = LEGAL_BY_FIRST.get(words[0]!) ?? [];
  list.push([words, sym]);
  list.sort((a, b) => b[0].length - a[0].length);
  LEGAL_BY_FIRST.set(words[0]!, list);
}
// A Russian name in the German (Duden) or French romanization, known by its patronymic (-owitsch,
// -owna; -ovitch) or, in German, by an -ow/-ew surname beside another sign of the German spelling,
// is read in the English one the lists use (Sergej Wiktorowitsch Schoigu, Wladislaw Surkow; Vladimir
// Vladimirovitch Poutine). Only such names: in others, w, j, z and ch are what they are.
const GERMAN_PATRONYMIC = /^[a-z]+(o|e|je)w(itsch|na)$/;
const GERMAN_SURNAME = /^[a-z]{3,}(o|e|je)wa?$/;
const GERMAN_SIGN = /^w|sch|[aei]j$/;
const FRENCH_PATRONYMIC = /^[a-z]+(ovitch|evitch)$/;

function readRussianRomanization(tokens: string[]): string[] {
  if (tokens.length < 2) return tokens;
  let german = false;
  let french = false;
  for (const t of tokens) {
    if (GERMAN_PATRONYMIC.test(t)) german = true;
    else if (FRENCH_PATRONYMIC.test(t)) french = true;
  }
  // (Not in an organization's name: Credit Bank of Moscow.)
  if (
    !german &&
    !french &&
    tokens.some((t) => GERMAN_SURNAME.test(t)) &&
    !tokens.some((t) => LEGAL_SINGLE.has(t) || LEGAL_FORM_WORDS.has(t))
  ) {
    german = tokens.some((t) => GERMAN_SIGN.test(t) && !GERMAN_SURNAME.test(t));
  }
  if (german) {
    return tokens.map((t) =>
      t
        .replace(/schtsch/g, 'shch')
        .replace(/tsch/g, '\u0001')
        .replace(/dsch/g, '\u0002')
        .replace(/sch/g, 'sh')
        .replace(/ch/g, 'kh')
        .replace(/w/g, 'v')
        .replace(/z/g, 'ts')
        .replace(/j/g, 'y')
        .replace(/\u0001/g, 'ch')
        .replace(/\u0002/g, 'dzh'),
    );
  }
  if (french) {
    return tokens.map((t) =>
      t
        .replace(/chtch/g, 'shch')
        .replace(/tch/g, '\u0001')
        .replace(/ch/g, 'sh')
        .replace(/\u0001/g, 'ch')
        .replace(/dj/g, '\u0002')
        .replace(/j/g, 'zh')
        .replace(/\u0002/g, 'dzh')
        .replace(/ou/g, 'u')
        .replace(/([a-z]{3})ine$/, '$1in'),
    );
  }
  return tokens;
}

/** Multi-word legal forms, and each written without its spaces (long enough to find inside other words). */
const LEGAL_MULTI = LEGAL_FORMS.map(([form, sym]) => [form.split(/[ -]/), sym] as [string[], string]).filter(
  ([w]) => w.length >= 2,
);
const LEGAL_SPACELESS = LEGAL_MULTI.map(([w, sym]) => [w, sym, w.join('')] as [string[], string, string])
  .filter(([, , j]) => j.length >= 8)
  .sort((a, b) => b[2].length - a[2].length);
const LEGAL_SPACELESS_ANY = new RegExp(LEGAL_SPACELESS.map(([, , j]) => j).join('|'));
/** Words of the multi-word legal forms, and the forms each stands in (with its place). */
const LEGAL_FORM_WORDS = new Set(LEGAL_MULTI.flatMap(([w]) => w));
const LEGAL_FORMS_BY_WORD = new Map<string, [string[], string, number][]>();
for (const [words, sym] of LEGAL_MULTI) {
  words.forEach((w, k) => {
    const list = LEGAL_FORMS_BY_WORD.get(w) ?? [];
    list.push([words, sym, k]);
    LEGAL_FORMS_BY_WORD.set(w, list);
  });
}

/**
 * Words that occur in names only as words of legal forms (Russian, German, Polish, Turkish, Romanian
 * forms, and "liability"): a legal form wherever they stand, also out of their form's order
 * ("Liability Company Stek Limited", "S Ogranichennoi Otvetstvennostyu Periton Obshchestvo").
 */
const LEGAL_ONLY_WORDS = new Map<string, string>(
  `liability=@llc obshchestvo=@co obschestvo=@co obshestvo=@co ogranichennoi=@llc ogranichennoy=@llc ogranichennoj=@llc
     otvetstvennostyu=@llc otvetstvennostiu=@llc otvetstvennostju=@llc aktsionernoe=@jsc aktsionernoye=@jsc akcionernoe=@jsc
     publichnoe=@pjsc publichnoye=@pjsc zakrytoe=@jsc zakrytoye=@jsc otkrytoe=@jsc otkrytoye=@jsc tovarishchestvo=@llp
     gesellschaft=@co beschrankter=@llc haftung=@llc odpowiedzialnoscia=@llc ograniczona=@llc sirketi=@co raspundere=@llc
     responsabilidad=@llc responsabilite=@llc responsabilita=@llc`
    .trim()
    .split(/\s+/)
    .map((e) => e.split('=') as [string, string]),
);
/**
 * Words that qualify a legal form (Open JSC, Public AO, Closed Joint Stock Company) or are left of a
 * multi-word form whose other words stand elsewhere: a legal form only beside one, or at either end
 * of a name that has one ("Joint Stock Company Polyus Public").
 */
const LEGAL_QUALIFIERS = new Set(['open', 'closed', 'public', 'private', 'joint', 'stock', 'liability', 's']);

/**
 * Spaces missing in or around a multi-word legal form ("OBSHCHESTVO Sogranichennoi OTVETSTVENNOSTYU",
 * "RPPlimited LIABILITY COMPANY", "TICARETanonim SIRKETI"): the form is found in the tokens written
 * together and the tokens are cut at its words. A word glued to the form keeps two letters at least.
 */
function resplitLegalForms(tokens: string[]): string[] {
  if (tokens.length === 0) return tokens;
  const joined = tokens.join('');
  if (joined.length < 8 || !LEGAL_SPACELESS_ANY.test(joined)) return tokens;
  for (const [words, , fs] of LEGAL_SPACELESS) {
    const at = joined.indexOf(fs);
    if (at < 0) continue;
    const end = at + fs.length;
    // Where the tokens begin and end in the joined text.
    const bounds = new Set<number>();
    let off = 0;
    for (const t of tokens) {
      bounds.add(off);
      off += t.length;
    }
    bounds.add(off);
    const cuts = new Set<number>([at, end]);
    let w = at;
    for (const word of words) {
      cuts.add(w);
      w += word.length;
    }
    // A token boundary inside the form must fall between its words.
    let ok = true;
    for (const b of bounds) if (b > at && b < end && !cuts.has(b)) ok = false;
    // Letters glued before or after the form: two at least.
    const before = at - Math.max(...[...bounds].filter((b) => b <= at));
    const after = Math.min(...[...bounds].filter((b) => b >= end)) - end;
    if ((before > 0 && before < 2) || (after > 0 && after < 2)) ok = false;
    if (!ok) continue;
    let missing = false;
    for (const c of cuts) if (!bounds.has(c)) missing = true;
    // Written with its spaces: the longest form found is this one.
    if (!missing) return tokens;
    const all = [...new Set([...bounds, ...cuts])].sort((a, b) => a - b);
    const out: string[] = [];
    for (let k = 0; k + 1 < all.length; k++) out.push(joined.slice(all[k], all[k + 1]));
    return out;
  }
  return tokens;
}

/**
 * A multi-word legal form with a slip in one of its words of four letters or more, the others written
 * right ("JONIT STOCK COMPANY", "LIMITED LIABILITY PARTERSHIP"); in a form of three words or more, a
 * slip in each word but one ("JOITN SOTOCK COMPANY"). Short words are not mended: a slip in "sa" or
 * "de" is another word.
 */
function legalFormNear(tokens: string[], i: number): [string[], string] | undefined {
  const t0 = tokens[i]!;
  const t1 = tokens[i + 1];
  const t2 = tokens[i + 2];
  if (
    t1 === undefined ||
    (!LEGAL_FORM_WORDS.has(t0) && !LEGAL_FORM_WORDS.has(t1) && (t2 === undefined || !LEGAL_FORM_WORDS.has(t2)))
  )
    return undefined;
  let best: [string[], string] | undefined;
  for (const f of LEGAL_MULTI) {
    const words = f[0];
    // (Every word, slipped or not, keeps its first letter.)
    if (
      i + words.length > tokens.length ||
      (best && best[0].length >= words.length) ||
      words[0]![0] !== t0[0] ||
      words[1]![0] !== t1[0]
    )
      continue;
    const allowed = words.length >= 3 ? words.length - 1 : 1;
    let slips = 0;
    for (let k = 0; k < words.length && slips <= allowed; k++) {
      const w = words[k]!;
      const t = tokens[i + k]!;
      if (t === w) continue;
      slips++;
      // (A slip keeps the first letter: Point Stock Company is a name, not a joint stock company.)
      if (w.length < 4 || t[0] !== w[0] || Math.abs(w.length - t.length) > 1 || !withinOneSlip(w, t))
        slips = allowed + 1;
    }
    if (slips >= 1 && slips <= allowed) best = f;
  }
  return best;
}

/**
 * A word of a legal form standing apart from its form: the legal-only words anywhere, and two or more
 * consecutive words of one multi-word form ("Liability Company", "Stock Company").
 */
function legalRemnant(tokens: string[], i: number): string | undefined {
  const t = tokens[i]!;
  const only = LEGAL_ONLY_WORDS.get(t);
  if (only !== undefined) return only;
  if (!LEGAL_FORM_WORDS.has(t) || tokens.length < 2) return undefined;
  // Part of a run of two or more words of one form, two of them of four letters or more.
  for (const [words, sym, k] of LEGAL_FORMS_BY_WORD.get(t) ?? []) {
    let lo = 0;
    while (lo < k && i - lo - 1 >= 0 && tokens[i - lo - 1] === words[k - lo - 1]) lo++;
    let hi = 0;
    while (k + hi + 1 < words.length && tokens[i + hi + 1] === words[k + hi + 1]) hi++;
    if (lo + hi < 1) continue;
    let long = 0;
    for (let x = k - lo; x <= k + hi; x++) if (words[x]!.length >= 4) long++;
    if (long >= 2) return sym;
  }
  return undefined;
}

function isLegalToken(x: string | undefined): boolean {
  return x !== undefined && (x.startsWith('@') || LEGAL_SINGLE.has(x));
}

const LEGAL_SINGLE = new Map<string, string>(
  `llc=@llc ooo=@llc too=@llc tov=@llc mchj=@llc gmbh=@llc sarl=@llc srl=@llc sro=@llc doo=@llc kft=@llc spzoo=@llc
     eood=@llc ood=@llc bvba=@llc llp=@llp lp=@lp
     ltd=@ltd ltda=@ltd pte=@ltd pty=@ltd pvt=@ltd limited=@ltd
     jsc=@jsc ojsc=@jsc cjsc=@jsc zao=@jsc oao=@jsc ao=@jsc jsco=@jsc tat=@jsc aat=@jsc
     pjsc=@pjsc pao=@pjsc
     plc=@plc sa=@sa spa=@sa sas=@sa saa=@sa sae=@sa ag=@ag nv=@nv bv=@bv oy=@ab oyj=@ab asa=@sa
     inc=@inc incorporated=@inc corp=@corp corporation=@corp co=@co company=@co cie=@co kg=@kg ohg=@kg
     fze=@fze fzco=@fze fzc=@fze fzllc=@fze dmcc=@fze est=@est establishment=@est
     kk=@kk gk=@kk bhd=@ltd sdn=@ltd tbk=@sa pt=@pt cv=@cv`
    .trim()
    .split(/\s+/)
    .map((e) => e.split('=') as [string, string]),
);

const PATRONYMIC =
  /(ovich|evich|ovych|evych|ovic|evic|ovics|evics|owitsch|ewitsch|ovitch|evitch|ovitj|evitj|ovitsj|owicz|ewicz|ovici|evici|ovitx|avich|avіch|ovna|evna|ivna|ychna|ichna|ogly|oglu|kyzy|qizi)$/;

const DIGIT = /\d/;
const FEMALE_PATRONYMIC = /(ovna|evna|ivna|ychna|ichna|kyzy|qizi)$/;

const ROMAN = new Map([
  ['ii', '2'],
  ['iii', '3'],
  ['iv', '4'],
  ['vi', '6'],
  ['vii', '7'],
  ['viii', '8'],
  ['ix', '9'],
  ['xi', '11'],
  ['xii', '12'],
  ['xiii', '13'],
  ['xiv', '14'],
  ['xv', '15'],
  ['xvi', '16'],
  ['xvii', '17'],
  ['xviii', '18'],
  ['xix', '19'],
  ['xx', '20'],
]);
/** One-letter numerals only in names known not to be persons' (for persons they are initials). */
const ROMAN_LETTER = new Map([
  ['i', '1'],
  ['v', '5'],
  ['x', '10'],
]);

const NUMBER_WORDS = new Map<string, number>(
  (
    'one 1 two 2 three 3 four 4 five 5 six 6 seven 7 eight 8 nine 9 ten 10 eleven 11 twelve 12 thirteen 13 fourteen 14 ' +
    'fifteen 15 sixteen 16 seventeen 17 eighteen 18 nineteen 19 twenty 20 thirty 30 forty 40 fourty 40 fifty 50 sixty 60 ' +
    'seventy 70 eighty 80 ninety 90 first 1 second 2 third 3'
  )
    .split(' ')
    .reduce<[string, number][]>((acc, v, i, arr) => (i % 2 === 0 ? [...acc, [v, Number(arr[i + 1])]] : acc), []),
);

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g' };

/** "sech1n" -> "sechin": a word with one or two digits standing in for letters. */
function deLeet(t: string): string | undefined {
  if (!/\d/.test(t)) return undefined;
  const digits = t.replace(/\D/g, '').length;
  // Digits for letters sit inside a word; one at an end is a serial or tranche mark ("AHL1", "AR16").
  if (digits === 0 || digits > 2 || t.length < 4 || !/^[a-z]/.test(t) || !/[a-z]$/.test(t)) return undefined;
  if (/^\d+[a-z]{1,3}$/.test(t)) return undefined;
  return t.replace(/\d/g, (d) => LEET[d] ?? d);
}

// Legal-form words found glued to a neighbour ("PROISTOKooo", "LIABILITYcompany"). Only the long
// ones are split off the front of a word (leaving two letters at least): short ones begin too many ordinary words.
const GLUED_AT_END = [
  'incorporated',
  'corporation',
  'liability',
  'limited',
  'company',
  'joint',
  'obshchestvo',
  'obschestvo',
  'aktsionernoe',
  'gmbh',
  'fzco',
  'dmcc',
  'pjsc',
  'ojsc',
  'cjsc',
  'llc',
  'ltd',
  'jsc',
  'inc',
  'ooo',
  'doo',
  'sarl',
];
const GLUED_AT_START = [
  'incorporated',
  'corporation',
  'liability',
  'limited',
  'company',
  'joint',
  'obshchestvo',
  'obschestvo',
  'aktsionernoe',
  'publichnoe',
  'zakrytoe',
  'otkrytoe',
];
// Long legal-form words are recognised with one typo ("COMyPANY", "LIMIsTED").
const TYPO_TOLERANT = [
  'incorporated',
  'corporation',
  'liability',
  'limited',
  'company',
  'aktiengesellschaft',
  'gesellschaft',
  'obshchestvo',
  'otvetstvennostyu',
  'ogranichennoy',
  'aktsionernoe',
  'aktsionernoye',
  'publichnoe',
  'publichnoye',
  'tovarishchestvo',
];

function splitGluedLegalForm(t: string): string[] {
  if (t.length < 7 || LEGAL_SINGLE.has(t)) return [t];
  for (const f of GLUED_AT_END)
    if (t.endsWith(f) && t.length - f.length >= 4) return [...splitGluedLegalForm(t.slice(0, -f.length)), f];
  for (const f of GLUED_AT_START)
    if (t.startsWith(f) && t.length - f.length >= 2) return [f, ...splitGluedLegalForm(t.slice(f.length))];
  return [t];
}

/** Abbreviated legal forms a slip in a query is still read as (see legalSlip). */
const SLIP_TOLERANT_FORMS =
  'llc ooo ltd jsc pjsc ojsc cjsc gmbh llp pvt pty dmcc fzco fze eood ood oao zao tov plc inc corp'.split(' ');

/**
 * The legal form an abbreviation with one slip stands for ("LzTD", "LCL", "JCS", "GMeBH", "LD" for
 * Ltd), or undefined. The caller decides where this reading is safe: a word at an end of a query
 * that the lists seldom hold. First in a name, a word of the form's length with one
 * letter replaced is more often an acronym (PLA, LXC Aviation) and is not read as a form.
 */
export function legalSlip(t: string, first: boolean): string | undefined {
  if (t.length < 2 || t.length > 5) return undefined;
  for (const f of SLIP_TOLERANT_FORMS) {
    if (f[0] !== t[0] || Math.abs(f.length - t.length) > 1) continue;
    // A two-letter word is only the form with a letter left out (Ld, Lc).
    if (t.length === 2 && f.length !== 3) continue;
    if (isTransposition(f, t)) return LEGAL_SINGLE.get(f);
    if (first && f.length === t.length) continue;
    if (levenshtein(f, t, 1) <= 1) return LEGAL_SINGLE.get(f);
  }
  return undefined;
}

const legalTypoCache = new Map<string, string>();

function legalTypo(t: string): string {
  if (t.length < 6 || LEGAL_SINGLE.has(t)) return t;
  let v = legalTypoCache.get(t);
  if (v === undefined) {
    v = legalTypoUncached(t);
    if (legalTypoCache.size < 100_000) legalTypoCache.set(t, v);
  }
  return v;
}

/** "YU7629" -> "yu 7629", "SONG6" -> "song 6", "50THanniversary" -> "50th anniversary": a number glued to a word. */
function splitLettersDigits(t: string): string[] {
  let m = /^([a-z]{2,})(\d+)$/.exec(t);
  if (m) return [m[1]!, m[2]!];
  m = /^(\d+(?:st|nd|rd|th)?)([a-z]{4,})$/.exec(t);
  if (m && !/^\d+(st|nd|rd|th)$/.test(t)) return [m[1]!, m[2]!];
  return [t];
}

function legalTypoUncached(t: string): string {
  // Long words take two slips (a swap of neighbours is two edits).
  for (const f of TYPO_TOLERANT) {
    const max = f.length >= 10 ? 2 : 1;
    if (
      Math.abs(f.length - t.length) <= max &&
      f[0] === t[0] &&
      (levenshtein(f, t, max) <= max || isTransposition(f, t))
    )
      return f;
  }
  return t;
}

/** NFKC, case fold, transliterate, strip diacritics and special letters; punctuation kept for splitting. */
export function foldText(input: string): string {
  // Plain ASCII (most listed names) needs case folding only.
  if (ASCII.test(input)) return input.toLowerCase().replace(APOSTROPHES, '');
  // Zero-width (non-)joiners only shape letters inside one word (Persian writes پزشک‌فر, Pezeshkfar,
  // with one): removed, not read as a space.
  let s = input.normalize('NFKC').toLowerCase().replace(ZERO_WIDTH, '');
  s = transliterate(s);
  s = s.normalize('NFD').replace(/\p{M}/gu, '');
  // Letters that do not decompose.
  return s.replace(SPECIAL_LETTERS, (c) => SPECIAL[c] ?? '');
}

const ASCII = /^[\x00-\x7f]*$/;
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/g;
const ABJAD = /[\u0590-\u05ff\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;
const APOSTROPHES = /[`']/g;
const SPECIAL: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ŀ: 'l',
  ħ: 'h',
  ŧ: 't',
  ə: 'a',
};
const SPECIAL_LETTERS = /[ßæœøłđðþıŀħŧəʿʾ`´‘’']/g;

export interface NormalizedName {
  parts: NamePart[];
  /** The folded name with single spaces, for exact-equality shortcuts and cluster keys. */
  key: string;
}

/**
 * Split a name into parts. `isPerson` turns on person-only readings (initials, patronymics,
 * "LAST, First"); for other types roman numerals count as numbers ("Solutions II").
 */
export function normalizeName(raw: string, isPerson: boolean | undefined): NormalizedName {
  let s = foldText(raw);
  // Dotted abbreviations and legal forms written with dots ("s.a.", "d.o.o.", "p.l.c.") collapse first,
  // also when glued to the word before or after them ("ARIZONAs.a.", "D.O.O.ljubljana").
  if (s.includes('.')) {
    s = s.replace(/([a-z]{3,})((?:[a-z]\.){2,})/g, '$1 $2');
    s = s.replace(/\b((?:[a-z]\.){2,}(?:[a-z](?![a-z]))?\.?)/g, (m) => ' ' + m.replace(/\./g, '') + ' ');
  }
  s = s.replace(/&/g, ' and ');
  // Everything that is not a letter or digit separates parts.
  // A number glued to the end of a word is a number ("SONG6", "Rahimi1"), for every kind of name, so
  // that both sides of a comparison read it alike.
  let rawTokens = s.split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0);
  if (DIGIT.test(s)) rawTokens = rawTokens.flatMap(splitLettersDigits);
  // (Each reading needs a w or a tch.)
  if (isPerson !== false && (s.includes('w') || s.includes('tch'))) rawTokens = readRussianRomanization(rawTokens);
  // Multi-word legal forms, longest first at each position ("public joint stock company" before "joint stock company").
  let tokens = rawTokens;
  if (isPerson !== true) {
    // A legal form glued to a word ("TECHNOLOGIESlimited", "companyPOLYUS") is split off, a typo in one mended.
    rawTokens = rawTokens
      .flatMap(splitGluedLegalForm)
      .map(legalTypo)
      .flatMap((t) => ABBREVIATIONS.get(t) ?? [t]);
    rawTokens = resplitLegalForms(rawTokens);
    const out: string[] = [];
    for (let i = 0; i < rawTokens.length; i++) {
      const forms = LEGAL_BY_FIRST.get(rawTokens[i]!);
      let hit: [string[], string] | undefined;
      if (forms)
        for (const f of forms)
          if (f[0].every((w, k) => rawTokens[i + k] === w)) {
            hit = f;
            break;
          }
      if (!hit || hit[0].length === 1) {
        const near = legalFormNear(rawTokens, i);
        if (near) hit = near;
      }
      if (hit) {
        out.push(hit[1]);
        i += hit[0].length - 1;
      } else out.push(legalRemnant(rawTokens, i) ?? rawTokens[i]!);
    }
    // Qualifiers beside a legal form, or at an end of a name that has one, go with it.
    for (let i = 0; i < out.length; i++) {
      const t = out[i]!;
      if (!LEGAL_QUALIFIERS.has(t)) continue;
      // (The Russian "s", with, only before its form: "S Ogranichennoi Otvetstvennostyu".)
      if (
        t === 's'
          ? isLegalToken(out[i + 1])
          : isLegalToken(out[i - 1]) ||
            isLegalToken(out[i + 1]) ||
            ((i === 0 || i === out.length - 1) && out.some(isLegalToken))
      )
        out[i] = '@co';
    }
    tokens = out;
  }
  // Titles stand before a name ("Dr Ayman", "King Abdullah", "AL-ZAWAHIRI, Dr. Ayman"): a title word
  // after the given names, or as the surname before the comma of "LAST, First", is a surname
  // ("Damon King", "John Major", "KING, Martin Luther"). Abbreviations (Dr, Gen., Sr.) are dropped
  // wherever they stand.
  const comma = s.indexOf(',');
  const surnameBlock =
    isPerson === true && comma > 0 && tokens.length === s.split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0).length
      ? s
          .slice(0, comma)
          .split(/[^\p{L}\p{N}]+/u)
          .filter((t) => t.length > 0).length
      : 0;
  const parts: NamePart[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.startsWith('@')) {
      parts.push({ text: t, kind: 'legal' });
      continue;
    }
    if (HONORIFICS.has(t) && tokens.length > 1 && (t.length < 4 || (i < tokens.length - 1 && i >= surnameBlock)))
      continue;
    if (/^\d+$/.test(t)) {
      const v = Number(t);
      const prev = parts[parts.length - 1];
      // "Forty 4" -> 44
      if (
        prev?.kind === 'number' &&
        v < 10 &&
        Number(prev.text) % 10 === 0 &&
        Number(prev.text) >= 20 &&
        Number(prev.text) < 100
      )
        prev.text = String(Number(prev.text) + v);
      else parts.push({ text: String(v), kind: 'number' });
      continue;
    }
    const leet = deLeet(t);
    if (leet !== undefined) {
      parts.push({ text: leet, kind: 'word' });
      continue;
    }
    const ordinal = /^(\d+)(st|nd|rd|th)$/.exec(t);
    if (ordinal) {
      parts.push({ text: String(Number(ordinal[1])), kind: 'number' });
      continue;
    }
    const nw = NUMBER_WORDS.get(t);
    if (nw !== undefined && isPerson !== true && parts.length > 0) {
      const prev = parts[parts.length - 1];
      // "forty four" -> 44
      if (prev?.kind === 'number' && nw < 10 && Number(prev.text) % 10 === 0 && Number(prev.text) >= 20)
        prev.text = String(Number(prev.text) + nw);
      else parts.push({ text: String(nw), kind: 'number' });
      continue;
    }
    if (/\d/.test(t)) {
      parts.push({ text: t, kind: 'number' });
      continue;
    }
    if (isPerson !== true) {
      const legal = LEGAL_SINGLE.get(t);
      if (legal !== undefined && tokens.length > 1) {
        parts.push({ text: legal, kind: 'legal' });
        continue;
      }
      const roman = ROMAN.get(t) ?? (isPerson === false ? ROMAN_LETTER.get(t) : undefined);
      // A numeral first in the name too ("XV Bicentenario" / "Bicentenario XV"), unless it may be a
      // name (Xi, Vi) or an initial.
      if (
        roman !== undefined &&
        (parts.length > 0 || (tokens.length > 1 && t.length > 1 && t !== 'xi' && t !== 'vi'))
      ) {
        parts.push({ text: roman, kind: 'number' });
        continue;
      }
    }
    if (t.length === 1 && isPerson !== false) {
      parts.push({ text: t, kind: 'initial' });
      continue;
    }
    if (PARTICLES.has(t)) {
      parts.push({ text: t, kind: 'particle' });
      continue;
    }
    // A "son of" form first in a name, or last without a comma before it, is a surname (Milosevic,
    // Slobodan; Zvonko Veselinovic; Lukashevich; Davutoglu): a patronymic follows a given name. The
    // daughter's forms (-ovna, -kyzy) are never surnames.
    const surnamePlace = (i === 0 || (i === tokens.length - 1 && comma < 0)) && !FEMALE_PATRONYMIC.test(t);
    if (isPerson !== false && PATRONYMIC.test(t) && t.length > 6 && !surnamePlace) {
      parts.push({ text: t, kind: 'patronymic' });
      continue;
    }
    parts.push({ text: t, kind: 'word' });
  }
  // A name made only of droppable words keeps them as words (a company called "General").
  if (parts.length === 0 && tokens.length > 0) for (const t of tokens) parts.push({ text: t, kind: 'word' });
  // A name whose only distinctive part is a number ("11420 Corp") is matched on that number.
  if (!parts.some((p) => p.kind === 'word' || p.kind === 'patronymic'))
    for (const p of parts) if (p.kind === 'number') p.kind = 'word';
  if (hasNonLatin(raw)) {
    const t: Translit = ABJAD.test(raw) ? 'abjad' : hasHan(raw) ? 'han' : 'alphabet';
    for (const p of parts) p.translit = t;
  }
  return { parts, key: parts.map((p) => p.text).join(' ') };
}
