/**
 * OFAC legacy CSV keeps most of an entry's attributes in the free-text Remarks field:
 * `DOB 10 Dec 1948; alt. DOB 1953; POB Giza, Egypt; nationality Egypt; Passport 1084010 (Egypt); ...`.
 * This module turns those clauses into record fields. Clauses it does not understand stay only in
 * `remarks`, which always keeps the full text.
 */
import type { ListRecord } from '../model.js';
import {
  addAlias,
  addDates,
  addIdentifier,
  addNaturalOrder,
  addUnique,
  classifyIdLabel,
  clean,
  countryCode,
  countryOrWording,
  escapeRegex,
  genderOf,
  type IdentifierInput,
  parseDate,
} from './kit/index.js';

// Document labels seen in OFAC remarks, longest first so "Diplomatic Passport" wins over "Passport".
const ID_LABELS = [
  'Aircraft Construction Number (also called L/N or S/N or F/N)',
  'Numero Unico de Identificacao Tributaria (NUIT)',
  'Paraguayan tax identification number',
  'Aircraft Serial Identification',
  'Vessel Registration Identification',
  "Aircraft Manufacturer's Serial Number (MSN)",
  'United Social Credit Code Certificate (USCCC)',
  'Dubai Chamber of Commerce Membership No.',
  'Unified Social Credit Code (USCC)',
  'Public Security and Immigration No.',
  'Cartilla de Servicio Militar Nacional',
  'Economic Register Number (CBLS)',
  'Certificate of Incorporation Number',
  'Central Registration System Number',
  'Business Registration Document #',
  'Aircraft Mode S Transponder Code',
  'Istanbul Chamber of Comm. No.',
  'Business Registration Number',
  'Previous Aircraft Tail Number',
  'Chamber of Commerce Number',
  'Commercial Registry Number',
  'Public Registration Number',
  'Turkish Identification Number',
  'Government Gazette Number',
  'Stateless Person Passport',
  'Registered Charity No.',
  'Travel Document Number',
  'Electoral Registry No.',
  'Birth Certificate Number',
  'Legal Entity Number',
  'Matricula Mercantil No',
  'Folio Mercantil No.',
  'Identification Number',
  'Aircraft Tail Number',
  'Diplomatic Passport',
  'Credencial electoral',
  "Driver's License No.",
  'Registration Number',
  "Citizen's Card Number",
  'Italian Fiscal Code',
  'Residency Number',
  'Enterprise Number',
  'Branch Unit Number',
  'Company Number',
  'UK Company Number',
  'National Foreign ID Number',
  'Personal ID Card',
  'Numero de Identidad',
  'Trade License No.',
  'Refugee ID Card',
  'Registration ID',
  'Business Number',
  'National ID No.',
  'D-U-N-S Number',
  'Permit Number',
  'Kenyan ID No.',
  'V.A.T. Number',
  'Tax ID No.',
  'Cedula No.',
  'VisaNumberID',
  'File Number',
  'LE Number',
  'SWIFT/BIC',
  'C.U.R.P.',
  'C.U.I.P.',
  'C.U.I.T.',
  'C.R. No.',
  'Passport',
  'R.F.C.',
  'US FEIN',
  'License',
  'D.N.I.',
  'C.U.I.',
  'I.F.E.',
  'NIT #',
  'RUC #',
  'RIF #',
  'MMSI',
  'BIK (RU)',
  'ISIN',
  'RFC',
  'RTN',
  'SSN',
].sort((a, b) => b.length - a.length);

const ID_LABEL_RE = new RegExp(`^(${ID_LABELS.map(escapeRegex).join('|')}):?\\s+(.+)$`, 'i');
/** Unknown labels shaped like a document number label: "Something Number 123", "Foo ID No. 4". */
const GENERIC_ID_RE =
  /^([A-Z][\w.'’/&-]*(?: [\w.'’/&()-]+){0,6}? (?:No\.?|Number|ID|#|Code))\s+([A-Za-z0-9][^\s]*(?: [^\s(]+)*)(.*)$/;

/**
 * Splits remarks into clauses at "; ". An alias in quotes may itself hold "; ", so a clause that
 * opens an alias quote runs on until the quote closes.
 */
export function splitRemarks(remarks: string): string[] {
  const raw = remarks.split(/;\s+/);
  const out: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    let clause = raw[i]!;
    if (/^(?:alt\.\s+)?[afn]\.k\.a\.,?\s+'/i.test(clause)) {
      while (
        !/'\.?\s*$/.test(clause) &&
        i + 1 < raw.length &&
        /'\.?\s*$/.test(raw[i + 1] ?? '') &&
        !/^(?:alt\.\s+)?[afn]\.k\.a\./i.test(raw[i + 1] ?? '')
      ) {
        clause += `; ${raw[++i]}`;
      }
    }
    const text = clause.trim();
    if (text) out.push(text);
  }
  // The whole field ends with a full stop; it belongs to no clause.
  const last = out.length - 1;
  if (last >= 0) out[last] = out[last]!.replace(/\.\s*$/, '');
  return out;
}

interface ValueParts {
  value: string;
  country?: string;
  countryName?: string;
  note?: string;
}

/**
 * "1084010 (Egypt) issued 12 Jan 2001" → value, issuing country, note. Also the rarer forms
 * "No.: 0310857, Eritrea, Issue Date 21 August 2006" and "D010302 (place or authority)".
 */
export function splitIdValue(text: string): ValueParts {
  let body = text
    .trim()
    .replace(/\.$/, '')
    .replace(/^(?:No\.\s*:?|No:|#)\s*/, '');
  let note: string | undefined;
  const trailing = /[\s,;]+((?:issued|expires|expiration date|expire date|issue date|valid|dates|alt\.)\b.*)$/i.exec(
    body,
  );
  if (trailing) {
    note = trailing[1];
    body = body.slice(0, trailing.index);
  }
  const notes = (...more: (string | undefined)[]): string | undefined =>
    clean([...more, note].filter(Boolean).join(' '));
  // A bracket of one character is part of the number, a check digit ("C234897(0) (GB)").
  const paren = /^(.*?)\s*\(([^()]{2,})\)\s*(.*)$/.exec(body);
  if (paren) {
    const code = countryCode(paren[2]);
    // "D000000483, Diplomatic (Syria)": what follows a comma and a space is about the number.
    const [value, ...about] = paren[1]!.split(/,\s+/);
    const parts: ValueParts = { value: value!.trim() };
    if (code) {
      parts.country = code;
      parts.countryName = paren[2]!.trim();
    }
    const noted = code ? notes(...about, paren[3]) : notes(...about, paren[2], paren[3]);
    if (noted) parts.note = noted;
    // "International Maritime Organization No. (5777731)": the value itself is bracketed.
    if (!parts.value && !code) return { value: paren[2]!.trim(), ...(note ? { note } : {}) };
    return parts;
  }
  // "0310857, Eritrea": a comma and a space end the number (a comma alone is inside one, "BE 454,419,759").
  const [value, country, ...rest] = body.split(/,\s+/);
  const code = countryCode(country);
  const parts: ValueParts = { value: value!.trim() };
  if (code) {
    parts.country = code;
    parts.countryName = country!.trim();
  }
  const trailingNotes = code ? notes(...rest) : notes(country, ...rest);
  if (trailingNotes) parts.note = trailingNotes;
  return parts;
}

function addId(record: ListRecord, label: string, rawValue: string): boolean {
  const parts = splitIdValue(rawValue);
  // "passport place of issue: Al-Anbar, Iraq" is prose about a document, not its number.
  if (!parts.value || /^\p{Ll}/u.test(parts.value)) return false;
  const id: IdentifierInput = { ...classifyIdLabel(label), value: parts.value, label };
  if (parts.country) id.country = parts.country;
  if (parts.note) id.note = parts.note;
  addIdentifier(record, id);
  return true;
}

function addCountry(target: string[], text: string): void {
  const value = clean(text.replace(/\.$/, ''));
  if (!value) return;
  addUnique(target, countryOrWording(value));
}

export interface RemarksResult {
  /** Target names from "Linked To:" clauses (kept for relationship use; not a ListRecord field). */
  linkedTo: string[];
  /** Clauses that matched no rule. */
  unparsed: string[];
}

/**
 * Applies the remarks of an OFAC legacy CSV row to a record. Aliases found here are weak: OFAC
 * moves its low-quality a.k.a.s into the remarks of the legacy files (the XML marks them
 * category="weak").
 */
export function applyRemarks(record: ListRecord, remarks: string): RemarksResult {
  const result: RemarksResult = { linkedTo: [], unparsed: [] };
  for (const clause of splitRemarks(remarks)) applyClause(record, clause, result);
  return result;
}

/** Clauses about the target: weak aliases, birth, nationality, citizenship, gender, links, listing date. */
function applyFactClause(record: ListRecord, text: string, clause: string, result: RemarksResult): boolean {
  let match: RegExpExecArray | null;
  if ((match = /^([afn])\.k\.a\.,?\s+['‘’"](.+?)['‘’"]?\.?$/i.exec(text))) {
    const kind = match[1]!.toLowerCase() === 'f' ? 'fka' : match[1]!.toLowerCase() === 'n' ? 'nka' : 'aka';
    const name = match[2]!.replace(/['’]$/, '');
    addAlias(record, name, 'weak', kind);
    addNaturalOrder(record, name, 'weak');
    return true;
  }
  if ((match = /^DOB:?\s+(.+)$/i.exec(text))) {
    const dates = parseDate(match[1]);
    if (dates.length) addDates(record.birthDates, dates);
    else result.unparsed.push(clause);
    return true;
  }
  if ((match = /^POB:?\s+(.+)$/i.exec(text))) {
    addUnique(record.birthPlaces, match[1]!.replace(/\.$/, ''));
    return true;
  }
  if ((match = /^nationality:?\s+(.+)$/i.exec(text)) || (match = /^Nationality of Registration\s+(.+)$/i.exec(text))) {
    addCountry(record.nationalities, match[1]!);
    return true;
  }
  if ((match = /^citizen(?:ship)?:?\s+(.+)$/i.exec(text))) {
    addCountry(record.citizenships, match[1]!);
    return true;
  }
  if ((match = /^Gender:?\s+(\w+)/i.exec(text))) {
    const gender = genderOf(match[1]);
    if (gender) record.gender = gender;
    return true;
  }
  if ((match = /^Linked To:\s*(.+)$/i.exec(text))) {
    addUnique(result.linkedTo, match[1]!.replace(/\.$/, ''));
    return true;
  }
  if ((match = /^Listing Date(?:\s*\([^)]*\))?:?\s+(.+)$/i.exec(text))) {
    const date = parseDate(match[1])[0]?.date;
    if (date && date.length === 10 && (!record.listingDate || date < record.listingDate)) record.listingDate = date;
    return true;
  }
  return false;
}

/** Clauses that give an identifier: vessel numbers and flag, call signs, addresses, documents. */
function applyIdentifierClause(record: ListRecord, text: string): boolean {
  let match: RegExpExecArray | null;
  // Vessels print "Vessel Registration Identification IMO 1234567", or the bare number when it is an
  // IMO number (seven digits) or a national register's ("15411 (Malta)", read below as a
  // registration); shipping companies "Identification Number IMO 5342883", "Company Number IMO ...".
  if (
    (match =
      /^(?:Vessel Registration Identification\s+|(?:Identification|Company) Number\s+)?IMO:?\s*(\d+)\b/i.exec(text) ??
      /^Vessel Registration Identification\s+(\d{7})$/i.exec(text))
  ) {
    addIdentifier(record, { type: 'imo', value: match[1]!, label: 'IMO' });
    return true;
  }
  if ((match = /^International Maritime Organization No\.?\s*\(?(\d{7})\)?/i.exec(text))) {
    addIdentifier(record, { type: 'imo', value: match[1]!, label: 'International Maritime Organization No.' });
    return true;
  }
  if ((match = /^(?:Other\s+)?Vessel Flag\s+(.+)$/i.exec(text))) {
    // The flag state is a vessel's nationality.
    addCountry(record.nationalities, match[1]!);
    return true;
  }
  if ((match = /^((?:Other\s+)?Vessel Call Sign)\s+(\S+)/i.exec(text))) {
    addIdentifier(record, { type: 'call_sign', value: match[2]!, label: match[1]! });
    return true;
  }
  if ((match = /^(Digital Currency Address - ([A-Z0-9]+))\s+([0-9A-Za-z:]+)/.exec(text))) {
    addIdentifier(record, { type: 'crypto_address', value: match[3]!, label: match[1]!, currency: match[2]! });
    return true;
  }
  if (
    (match = /^(Email Address|Email|Website|Phone(?: Number)?|Telephone(?: No\.?)?|Fax(?: No\.?)?):?\s*(.+)$/i.exec(
      text,
    ))
  ) {
    addIdentifier(record, { ...classifyIdLabel(match[1]!), value: match[2]!.replace(/\.$/, ''), label: match[1]! });
    return true;
  }
  if ((match = ID_LABEL_RE.exec(text))) {
    const label = ID_LABELS.find((l) => l.toLowerCase() === match![1]!.toLowerCase()) ?? match[1]!;
    if (addId(record, label, match[2]!)) return true;
  }
  if ((match = GENERIC_ID_RE.exec(text)) && !/^(linked|a\.k\.a|member|director|head|minister)/i.test(text)) {
    if (addId(record, match[1]!, `${match[2]}${match[3] ?? ''}`)) return true;
  }
  return false;
}

/** Applies one "Label value" clause (a remarks clause, or an XML id rebuilt as one). */
export function applyClause(record: ListRecord, clause: string, result: RemarksResult): void {
  const text = clause.replace(/^alt\.\s+/i, '').trim();
  if (applyFactClause(record, text, clause, result) || applyIdentifierClause(record, text)) return;
  result.unparsed.push(clause);
}

// Labels of XML ids/features that carry sanctions information rather than an identifier.
const NOT_AN_ID =
  /^(additional sanctions|secondary sanctions|transactions prohibited|executive order|caatsa|ifca|effective date|purchase\/sales|organization established|organization type|target type|vessel type|vessel year|vessel tonnage|vessel gross|aircraft model|aircraft manufacture date|aircraft operator|for more information|listing date|former vessel flag|other vessel type|issuer name|peesa information|un\/locode)/i;

/**
 * Applies a labelled value from the XML formats (classic idList, advanced IDRegDocument or
 * Feature). They repeat what the CSV remarks say as "label / number / country", so the clause is
 * rebuilt and goes through the same rules; labels no rule knows become identifiers of their own.
 */
export function applyLabeledId(
  record: ListRecord,
  label: string | undefined,
  value: string | undefined,
  countryName: string | undefined,
  notes: string[] = [],
): void {
  const cleanLabel = clean(label)?.replace(/:$/, '');
  const cleanValue = clean(value);
  if (!cleanLabel || !cleanValue || NOT_AN_ID.test(cleanLabel)) return;
  const clause = `${cleanLabel} ${cleanValue}${countryName ? ` (${countryName})` : ''}${notes.length ? ` ${notes.join(' ')}` : ''}`;
  const result: RemarksResult = { linkedTo: [], unparsed: [] };
  applyClause(record, clause, result);
  if (result.unparsed.length === 0) return;
  const id: IdentifierInput = { ...classifyIdLabel(cleanLabel), value: cleanValue, label: cleanLabel };
  const code = countryCode(countryName);
  if (code) id.country = code;
  if (notes.length) id.note = notes.join('; ');
  addIdentifier(record, id);
}
