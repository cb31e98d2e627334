/**
 * Legal forms of organizations in the languages the lists and customers write them, each replaced by
 * one canonical symbol (@llc, @jsc...), so that "OOO", "Limited Liability Company" and "GmbH" are one
 * part; also when written with dots, glued to a neighbour, with a slip, without spaces, or with their
 * words out of order. Sources: ISO 20275 entity legal forms, common usage.
 */
import { remembering } from './remembered.js';
import { isTransposition, levenshtein, withinOneSlip } from './similarity.js';

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
    for (const token of tokens) {
      bounds.add(off);
      off += token.length;
    }
    bounds.add(off);
    const cuts = new Set<number>([at, end]);
    let cut = at;
    for (const word of words) {
      cuts.add(cut);
      cut += word.length;
    }
    // A token boundary inside the form must fall between its words.
    let ok = true;
    for (const bound of bounds) if (bound > at && bound < end && !cuts.has(bound)) ok = false;
    // Letters glued before or after the form: two at least.
    const before = at - Math.max(...[...bounds].filter((b) => b <= at));
    const after = Math.min(...[...bounds].filter((b) => b >= end)) - end;
    if ((before > 0 && before < 2) || (after > 0 && after < 2)) ok = false;
    if (!ok) continue;
    let missing = false;
    for (const position of cuts) if (!bounds.has(position)) missing = true;
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
  const first = tokens[i]!;
  const second = tokens[i + 1];
  const third = tokens[i + 2];
  if (
    second === undefined ||
    (!LEGAL_FORM_WORDS.has(first) &&
      !LEGAL_FORM_WORDS.has(second) &&
      (third === undefined || !LEGAL_FORM_WORDS.has(third)))
  )
    return undefined;
  let best: [string[], string] | undefined;
  for (const form of LEGAL_MULTI) {
    const words = form[0];
    // (Every word, slipped or not, keeps its first letter.)
    if (
      i + words.length > tokens.length ||
      (best && best[0].length >= words.length) ||
      words[0]![0] !== first[0] ||
      words[1]![0] !== second[0]
    )
      continue;
    const allowed = words.length >= 3 ? words.length - 1 : 1;
    let slips = 0;
    for (let k = 0; k < words.length && slips <= allowed; k++) {
      const word = words[k]!;
      const token = tokens[i + k]!;
      if (token === word) continue;
      slips++;
      // (A slip keeps the first letter: Point Stock Company is a name, not a joint stock company.)
      if (
        word.length < 4 ||
        token[0] !== word[0] ||
        Math.abs(word.length - token.length) > 1 ||
        !withinOneSlip(word, token)
      )
        slips = allowed + 1;
    }
    if (slips >= 1 && slips <= allowed) best = form;
  }
  return best;
}

/**
 * A word of a legal form standing apart from its form: the legal-only words anywhere, and two or more
 * consecutive words of one multi-word form ("Liability Company", "Stock Company").
 */
function legalRemnant(tokens: string[], i: number): string | undefined {
  const token = tokens[i]!;
  const only = LEGAL_ONLY_WORDS.get(token);
  if (only !== undefined) return only;
  if (!LEGAL_FORM_WORDS.has(token) || tokens.length < 2) return undefined;
  // Part of a run of two or more words of one form, two of them of four letters or more.
  for (const [words, sym, position] of LEGAL_FORMS_BY_WORD.get(token) ?? []) {
    let before = 0;
    while (before < position && i - before - 1 >= 0 && tokens[i - before - 1] === words[position - before - 1])
      before++;
    let after = 0;
    while (position + after + 1 < words.length && tokens[i + after + 1] === words[position + after + 1]) after++;
    if (before + after < 1) continue;
    let long = 0;
    for (let x = position - before; x <= position + after; x++) if (words[x]!.length >= 4) long++;
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
  for (const form of GLUED_AT_END)
    if (t.endsWith(form) && t.length - form.length >= 4)
      return [...splitGluedLegalForm(t.slice(0, -form.length)), form];
  for (const form of GLUED_AT_START)
    if (t.startsWith(form) && t.length - form.length >= 2) return [form, ...splitGluedLegalForm(t.slice(form.length))];
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
  for (const form of SLIP_TOLERANT_FORMS) {
    if (form[0] !== t[0] || Math.abs(form.length - t.length) > 1) continue;
    // A two-letter word is only the form with a letter left out (Ld, Lc).
    if (t.length === 2 && form.length !== 3) continue;
    if (isTransposition(form, t)) return LEGAL_SINGLE.get(form);
    if (first && form.length === t.length) continue;
    if (levenshtein(form, t, 1) <= 1) return LEGAL_SINGLE.get(form);
  }
  return undefined;
}

const rememberedLegalTypo = remembering(legalTypoUncached);

function legalTypo(t: string): string {
  if (t.length < 6 || LEGAL_SINGLE.has(t)) return t;
  return rememberedLegalTypo(t);
}

function legalTypoUncached(t: string): string {
  // Long words take two slips (a swap of neighbours is two edits).
  for (const form of TYPO_TOLERANT) {
    const max = form.length >= 10 ? 2 : 1;
    if (
      Math.abs(form.length - t.length) <= max &&
      form[0] === t[0] &&
      (levenshtein(form, t, max) <= max || isTransposition(form, t))
    )
      return form;
  }
  return t;
}

/** The canonical symbol of a one-word legal form, undefined for other words. */
export function legalSymbol(t: string): string | undefined {
  return LEGAL_SINGLE.get(t);
}

/** A one-word legal form or a word of a multi-word one (a name holding one is an organization's). */
export function inLegalForm(t: string): boolean {
  return LEGAL_SINGLE.has(t) || LEGAL_FORM_WORDS.has(t);
}

/**
 * The tokens of a name that may be an organization's, with every legal form in them replaced by its
 * symbol: a legal form glued to a word ("TECHNOLOGIESlimited", "companyPOLYUS") split off and a typo
 * in one mended, abbreviations written out, missing spaces restored, then multi-word forms, longest
 * first at each position ("public joint stock company" before "joint stock company").
 */
export function readLegalForms(tokens: string[]): string[] {
  let rawTokens = tokens
    .flatMap(splitGluedLegalForm)
    .map(legalTypo)
    .flatMap((t) => ABBREVIATIONS.get(t) ?? [t]);
  rawTokens = resplitLegalForms(rawTokens);
  const out: string[] = [];
  for (let i = 0; i < rawTokens.length; i++) {
    const forms = LEGAL_BY_FIRST.get(rawTokens[i]!);
    let hit: [string[], string] | undefined;
    if (forms)
      for (const form of forms)
        if (form[0].every((w, k) => rawTokens[i + k] === w)) {
          hit = form;
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
    const token = out[i]!;
    if (!LEGAL_QUALIFIERS.has(token)) continue;
    // (The Russian "s", with, only before its form: "S Ogranichennoi Otvetstvennostyu".)
    if (
      token === 's'
        ? isLegalToken(out[i + 1])
        : isLegalToken(out[i - 1]) ||
          isLegalToken(out[i + 1]) ||
          ((i === 0 || i === out.length - 1) && out.some(isLegalToken))
    )
      out[i] = '@co';
  }
  return out;
}
