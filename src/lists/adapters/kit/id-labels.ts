/**
 * Identifiers as the publishers label them, in document lists and in free text: a label ("Cedula
 * No.", "Tax ID No.", "OGRN", "旅券番号") tells the identifier's type; `labelledNumbers` finds
 * "label: number" in a remark such as DFAT's Additional Information, `numbersIn` the numbers of a
 * field that holds one kind (OFSI's passport column, MOF's 旅券番号).
 */
import type { IdentifierType } from '../../model.js';
import type { IdentifierKind } from '../../../identifiers/index.js';
import { splitEnumerated } from '../../../formats/index.js';

export interface IdentifierClass {
  type: IdentifierType;
  /** A finer kind than the type tells, for numbers a screening cannot ask about (email, bank code...). */
  kind?: IdentifierKind;
}

const TAX =
  /tax|fiscal|tributari|v\.a\.t|\bvat\b|r\.?f\.?c\b|\bnit\b|\brif\b|\bruc\b|c\.u\.i\.t|\bfein\b|\brtn\b|\binn\b|\bkpp\b|\btin\b|\bntn\b|\bnuit\b|\bc\.i\.f\b|\brsin\b/;
const REGISTRATION =
  /registr|company (number|id|no)|commercial|chamber of comm|licen[cs]e|folio|matricula|incorporation|enterprise number|branch unit|gazette|social credit code|d-u-n-s|\bc\.r\.(?!\w)|charity|permit|business (number|registration|identification|reg)|organization code|economic register|msb|\bogrn\b|\bbin\b|\bokpo\b|\bbr\b|\bcr\b|\bsrn\b|\bicp\b|company identification/;
const NATIONAL =
  /national|personal id|identi|id card|\bid\b|cedula|c[ée]dula|d\.n\.i|c\.u\.r\.p|c\.u\.i|i\.f\.e|\bssn\b|social security|birth certificate|electoral|driv|residen|immigration|citizen's card|visanumberid|le number|refugee|tazkira|travel document|travel card|cartilla|military|\bn\.i\.e\b|personal numerical|\bcnp\b/;

/**
 * The type of an identifier from its label, in the order that settles overlaps: "Aircraft Tail
 * Number" before "Number", "Passport" before "National", tax words before registration words
 * ("Tax Registration Number" is a tax id).
 */
export function classifyIdLabel(label: string): IdentifierClass {
  // The lists repeat a few hundred labels over tens of thousands of numbers.
  let known = classes.get(label);
  if (!known) classes.set(label, (known = classify(label)));
  return known;
}
const classes = new Map<string, IdentifierClass>();

function classify(label: string): IdentifierClass {
  const lowered = label.toLowerCase();
  if (/legal entity (number|identifier)|\blei\b/.test(lowered)) return { type: 'lei' };
  if (/\bbik\b/.test(lowered)) return { type: 'other', kind: 'bank_code' };
  if (/swift|\bbic\b/.test(lowered)) return { type: 'swift' };
  if (/\bimo\b|international maritime organi[sz]ation/.test(lowered)) return { type: 'imo' };
  if (/\bmmsi\b/.test(lowered)) return { type: 'mmsi' };
  if (/call sign/.test(lowered)) return { type: 'call_sign' };
  if (/tail number|aircraft registration/.test(lowered)) return { type: 'aircraft_tail' };
  if (/transponder|mode s\b/.test(lowered)) return { type: 'other', kind: 'aircraft_transponder' };
  if (/aircraft (construction|manufacturer's serial|serial)|\bmsn\b/.test(lowered)) return { type: 'aircraft_serial' };
  if (/digital currency address|crypto|wallet/.test(lowered)) return { type: 'crypto_address' };
  if (/\bisin\b|equity ticker|micex code/.test(lowered)) return { type: 'other', kind: 'securities_id' };
  if (/e-?mail|メール/.test(lowered)) return { type: 'other', kind: 'email' };
  if (/website|web site|\burl\b|ウェブサイト|ホームページ/.test(lowered)) return { type: 'other', kind: 'website' };
  if (/phone|\btel\b|\bfax\b|facsimile|電話/.test(lowered)) return { type: 'other', kind: 'phone' };
  if (/passport|pasaporte|passeport|旅券|パスポート/.test(lowered)) return { type: 'passport' };
  // Telegraph codes for Chinese names, and food ration cards: numbers, but of no document.
  if (/chinese commercial code|ration card/.test(lowered)) return { type: 'other' };
  if (/driver|electoral|credencial/.test(lowered)) return { type: 'national_id' };
  if (TAX.test(lowered) || /employer identification|納税|税番号|雇用id/.test(lowered)) return { type: 'tax_id' };
  if (/登録番号|法人番号|会社番号|ライセンス/.test(lowered)) return { type: 'registration' };
  if (/身分証|身分登録|id番号|idカード|識別番号|社会保障/.test(lowered)) return { type: 'national_id' };
  if (REGISTRATION.test(lowered)) return { type: 'registration' };
  if (NATIONAL.test(lowered)) return { type: 'national_id' };
  return { type: 'other' };
}

/**
 * "IMO 9123456", "IMO number: 9123456", "(IMO) Number: 1790183", "IMO番号：5342883". In capitals
 * only: "Imomali" is a name.
 */
export const IMO_LABEL = /\bIMO\b\)?(?:\s*(?:[Nn]umber|N[Oo]\.?|no\.?|番号))?\)?\s*[:.]?\s*/g;

export interface LabelledNumber {
  /** The label as written, or undefined for a number with none (the field's own type applies). */
  label?: string;
  value: string;
  /** The rest of the enumerated item the number came from ("issued 19 Jun 2010 in Tunis"). */
  context: string;
}

/** A word of capitals and digits, with the punctuation found inside numbers ("A-123/45.6"). */
const CODE_WORD = /[\p{Lu}\p{N}][\p{Lu}\p{N}./\-–]*/uy;
/** A date or a bare year is not a document number ("issued 4.2.2003", "expires 2024"). */
const DATE_LIKE = /^(\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{4}-\d{2}-\d{2}|(19|20)\d\d)$/;
/** Long marks and dashes MOF writes between the parts of a number ("SEー011697"). */
const INNER_DASH = /(?<=[\p{Lu}\p{N}])[ー―−‐‑](?=[\p{Lu}\p{N}])/gu;

/**
 * The first number in a piece of text: a run of words of capitals and digits ("E590976",
 * "AO 2879097", "LBR HBB 61S17 Z352F") holding at least two digits and five characters, that is
 * not a date. Anything else (a word in lower case, a comma, a bracket, Japanese text) ends a run,
 * so the text needs no spaces around the number.
 */
export function firstNumber(text: string): string | undefined {
  // "No34409/129": the sign glued to the number is not part of it.
  const normalized = text
    .normalize('NFKC')
    .replace(INNER_DASH, '-')
    .replace(/(^|[^\p{L}])(?:No|Nr)\.?(?=\d)/gu, '$1');
  let run: string[] = [];
  const flush = (): string | undefined => {
    const value = run
      .join(' ')
      .replace(/[./\-–]+$/, '')
      .trim();
    run = [];
    const bare = value.replace(/[^\p{L}\p{N}]/gu, '');
    if (bare.length < 5 || (bare.match(/\d/g)?.length ?? 0) < 2 || DATE_LIKE.test(value)) return undefined;
    return value;
  };
  let at = 0;
  while (at < normalized.length) {
    CODE_WORD.lastIndex = at;
    const word = CODE_WORD.exec(normalized);
    // A word joins the run when it follows the run's last word after one space or none.
    if (word && !/\p{Ll}/u.test(normalized[at + word[0].length] ?? '')) {
      run.push(word[0]);
      at += word[0].length;
      if (normalized[at] === ' ' && /[\p{Lu}\p{N}]/u.test(normalized[at + 1] ?? '')) at++;
      else {
        const found = flush();
        if (found) return found;
      }
      continue;
    }
    const found = flush();
    if (found) return found;
    // Skip the whole of a word that is not a number ("Sudan", "passport", "旅券"), or one character.
    at += word ? word[0].length : 1;
    // Letters in lower case or without case go with it; digits and capitals may start a number ("旅券203037").
    if (/[\p{L}\p{N}]/u.test(normalized[at - 1]!))
      while (at < normalized.length && /[\p{Ll}\p{Lo}\p{Lm}]/u.test(normalized[at]!)) at++;
  }
  return flush();
}

/**
 * The numbers of a field that holds numbers of one kind, enumerated or not: OFSI's "(1) D014433
 * (2) D009889", MOF's "アフガニスタン旅券：SE-011697（1988年...発行）". A piece that is only a
 * number (with its inner spaces and signs, "N°235/MISPAT") is taken whole; from a piece of prose
 * the first number is taken, and the prose kept as its context.
 */
export function numbersIn(text: string | undefined): LabelledNumber[] {
  const out: LabelledNumber[] = [];
  const normalized = (text ?? '')
    .normalize('NFKC')
    // "(2) 347834(3) 434021161": a numbered marker glued to the number before it.
    .replace(/(?<=\S)(?=\(\d{1,2}\)\s)/g, ' ')
    // "8208 No. 555627": a Russian passport's series and number.
    .replace(/\s+No\.\s+(?=\d)/g, ' ');
  for (const line of normalized.split(/\n+/)) {
    for (const piece of splitEnumerated(line)) {
      // A bracketed count after the number ("0703769818 (31)") is not part of it.
      const cleanedPiece = piece
        .replace(/[\s.;,]+$/, '')
        .replace(/\s+\(\d{1,3}\)$/, '')
        .trim();
      // Only capitals, digits and the signs inside numbers ("G9336_77", "[00]37125", "12/YAKANA(N)006981").
      const whole = /^[\p{Lu}\p{N}°№#[(][\p{Lu}\p{N}\s°№#./\-–_[\]()]*$/u.test(cleanedPiece) && /\d/.test(cleanedPiece);
      const value = whole ? cleanedPiece : firstNumber(cleanedPiece);
      if (value) out.push({ value, context: cleanedPiece });
    }
  }
  return out;
}

/**
 * Numbers whose shape is known, looked for first after their label: a BIC is letters as often as
 * not ("SABRRUMM"), and an IMO number follows a ship's name that may end in a number ("Mi Rim 2
 * 9361407"). When nothing of the shape is there, the first number is taken as printed.
 */
const SHAPES: Partial<Record<IdentifierType, RegExp>> = {
  swift: /\b[A-Z]{6}[0-9A-Z]{2}(?:[0-9A-Z]{3})?\b/,
  imo: /(?<!\d)\d{7}(?!\d)/,
  mmsi: /(?<!\d)\d{9}(?!\d)/,
};

/**
 * "Label: number" pairs in free text. `labels` matches the labels this field uses (with their
 * "no.", "number" and colon); the text after a label, up to the next label or the end of the
 * sentence, is split at its enumerations ("a) ... b) ...") and the first number of each piece is
 * taken. A number before any label is returned without one when the field's own type is given
 * as `unlabelled`, and dropped otherwise.
 */
export function labelledNumbers(text: string, labels: RegExp, unlabelled?: IdentifierType): LabelledNumber[] {
  const flags = labels.flags.includes('g') ? labels.flags : `${labels.flags}g`;
  const labelPattern = new RegExp(labels.source, flags);
  const normalized = text.normalize('NFKC').replace(/\r\n?/g, '\n');
  const starts: { at: number; end: number; label: string }[] = [];
  for (const match of normalized.matchAll(labelPattern))
    starts.push({ at: match.index, end: match.index + match[0].length, label: match[0] });
  const out: LabelledNumber[] = [];
  const take = (label: string | undefined, body: string): void => {
    // A sentence ends a label's reach; "No. 123" is not the end of a sentence.
    const sentence = body.split(/\n|(?<!\b(?:No|no|NO|Nr|nr))\.\s+(?=[A-Z])/)[0] ?? '';
    const type = label === undefined ? unlabelled : classifyIdLabel(label).type;
    const shape = type && SHAPES[type];
    for (const piece of splitEnumerated(sentence)) {
      const value = shape?.exec(piece)?.[0] ?? firstNumber(piece);
      if (!value) continue;
      const found: LabelledNumber = { value, context: piece.replace(/\s*\(?[a-z\d]\)\s*$/, '').trim() };
      if (label) found.label = label.replace(/[\s:.\-–]+$/, '').trim();
      out.push(found);
    }
  };
  if (unlabelled) take(undefined, normalized.slice(0, starts[0]?.at ?? normalized.length));
  starts.forEach((s, i) => take(s.label, normalized.slice(s.end, starts[i + 1]?.at ?? normalized.length)));
  return out;
}

/** E-mail addresses in a text. */
export function emailsIn(text: string | undefined): string[] {
  return [...(text ?? '').matchAll(/[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu)].map((m) => m[0]);
}

/** Web addresses in a text ("http://www.belnaft.co.uk/", "www.vtb.ru"), not the domains of e-mail addresses. */
export function websitesIn(text: string | undefined): string[] {
  const websitePattern = /(?<![@\w.-])(?:https?:\/\/)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?:\/[^\s,;()]*)?/gi;
  return [...(text ?? '').matchAll(websitePattern)].map((m) => m[0]);
}
