/**
 * Identifiers: the types a screening can name, the kinds the lists print that it cannot, and per
 * type the normalized form two writings of one number share and, where the standard defines one,
 * the check a well-formed number passes. Pure functions with no list in mind: the list adapters
 * and the API's request validation use the same ones, so a number is read alike on both sides.
 */

/** The identifier types a screening can ask about (issue 15). */
export const SCREENING_IDENTIFIER_TYPES = [
  'imo',
  'mmsi',
  'lei',
  'bic',
  'passport',
  'national_id',
  'registration',
  'tax_id',
  'crypto_wallet',
  'call_sign',
  'aircraft_serial',
  'aircraft_registration',
] as const;
export type ScreeningIdentifierType = (typeof SCREENING_IDENTIFIER_TYPES)[number];

/**
 * What else the lists print as numbers, which no screening asks about: references to list entries
 * (UN, EU, UK references, OFAC's uid, a publisher's own keys), national bank codes (Russia's BIK),
 * securities (ISIN), aircraft transponder codes, contact details, and the rest.
 */
export const LISTED_IDENTIFIER_TYPES = [
  'list_reference',
  'bank_code',
  'securities_id',
  'aircraft_transponder',
  'email',
  'phone',
  'website',
  'other',
] as const;
export type ListedIdentifierType = (typeof LISTED_IDENTIFIER_TYPES)[number];

export type IdentifierKind = ScreeningIdentifierType | ListedIdentifierType;

/**
 * The identifier types of the list record model (lists/model.ts), older names kept in stored
 * records; `identifierKindOf` gives the screening kind of each.
 */
export type IdentifierType =
  | 'passport'
  | 'national_id'
  | 'registration'
  | 'tax_id'
  | 'imo'
  | 'mmsi'
  | 'lei'
  | 'swift'
  | 'un_ref'
  | 'eu_ref'
  | 'uk_ref'
  | 'ofac_uid'
  | 'call_sign'
  | 'aircraft_tail'
  | 'aircraft_serial'
  | 'crypto_address'
  | 'other';

/** The screening kind of each model type, where the model kept its older names. */
const KIND_OF_TYPE: Record<IdentifierType, IdentifierKind> = {
  passport: 'passport',
  national_id: 'national_id',
  registration: 'registration',
  tax_id: 'tax_id',
  imo: 'imo',
  mmsi: 'mmsi',
  lei: 'lei',
  swift: 'bic',
  un_ref: 'list_reference',
  eu_ref: 'list_reference',
  uk_ref: 'list_reference',
  ofac_uid: 'list_reference',
  call_sign: 'call_sign',
  aircraft_tail: 'aircraft_registration',
  aircraft_serial: 'aircraft_serial',
  crypto_address: 'crypto_wallet',
  other: 'other',
};

/**
 * The kind of a stored identifier: its own `kind` where an adapter set one, else the screening
 * kind of its model type (records built elsewhere, such as us_ofac_50's, carry only `type`).
 */
export function identifierKindOf(id: { type: IdentifierType; kind?: IdentifierKind | undefined }): IdentifierKind {
  return id.kind ?? KIND_OF_TYPE[id.type];
}

export function isScreeningIdentifierType(value: string): value is ScreeningIdentifierType {
  return (SCREENING_IDENTIFIER_TYPES as readonly string[]).includes(value);
}

/** The types whose standard defines a check; every other type is taken as written. */
export const CHECKED_IDENTIFIER_TYPES: readonly ScreeningIdentifierType[] = ['imo', 'mmsi', 'lei', 'bic'];

/**
 * Words printed before a number that are not part of it: "IMO 9123456", "LEI: 2534...", "No. 123".
 * Where the number itself may begin with the same letters (a BIC BICCCNYA, an LEI of a prefix
 * LEIX...), the word counts only when no letter or digit follows it at once.
 */
const PREFIXES: Partial<Record<IdentifierKind, RegExp>> = {
  imo: /^(?:IMO|International Maritime Organi[sz]ation)(?:\s*(?:No\.?|Number|#))?\s*[:.]?\s*/i,
  mmsi: /^MMSI(?:\s*(?:No\.?|Number|#))?\s*[:.]?\s*/i,
  lei: /^(?:LEI|Legal Entity (?:Identifier|Number))(?![0-9A-Z])(?:\s*(?:Code|No\.?|#))?\s*[:.]?\s*/i,
  bic: /^(?:SWIFT\s*\/\s*BIC|SWIFT|BIC)(?![0-9A-Z])(?:\s*(?:Code|No\.?|#))?\s*[:.]?\s*/i,
  call_sign: /^Call\s*Sign\s*[:.]?\s*/i,
  aircraft_serial: /^(?:MSN|S\/N|Serial(?:\s*(?:No\.?|Number))?)\s*[:.]?\s*/i,
};
/** "No. 123", "№ 123", "# 123" before any document number. */
const NUMBER_SIGN = /^(?:No\.|Nr\.|N°|№|#)\s*/i;

/** Upper case, compatibility forms folded (full-width digits), every space, dash, dot or slash dropped. */
function compact(value: string): string {
  return value
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** Currencies the publishers write under another code than the exchanges: OFAC writes Bitcoin XBT. */
const CURRENCY_ALIASES: Record<string, string> = { XBT: 'BTC' };

export function normalizeCurrency(currency: string): string {
  const code = currency.trim().toUpperCase();
  return CURRENCY_ALIASES[code] ?? code;
}

/** Bech32 (bc1..., ltc1...): a prefix, the separator 1, then data in the bech32 alphabet, in one case. */
const BECH32 = /^[a-z]{1,20}1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}$/;

/**
 * A wallet address as one string. Hexadecimal (Ethereum and its kind) and bech32 addresses read
 * the same in either letter case, so they are lower-cased; every other alphabet (base58 for
 * Bitcoin's older addresses, Tron, Monero) tells letters apart by case, so it is kept.
 */
function normalizeWallet(value: string): string {
  const squeezed = value.normalize('NFKC').replace(/\s+/g, '');
  if (/^0x[0-9a-f]{40}$/i.test(squeezed)) return squeezed.toLowerCase();
  if (
    (squeezed === squeezed.toLowerCase() || squeezed === squeezed.toUpperCase()) &&
    BECH32.test(squeezed.toLowerCase())
  )
    return squeezed.toLowerCase();
  return squeezed;
}

/**
 * The form two writings of one identifier share: "IMO 9123456" and "9123456", "AO 2879097" and
 * "ao-2879097", "VTBRRUMM" and "VTBR RU MM XXX" (an 11-character BIC ending XXX names the head
 * office, the same party as its 8-character form).
 */
export function normalizeIdentifier(kind: IdentifierKind, value: string): string {
  const text = value.normalize('NFKC').trim();
  const bare = text.replace(PREFIXES[kind] ?? NUMBER_SIGN, '').replace(NUMBER_SIGN, '');
  switch (kind) {
    case 'crypto_wallet':
      return normalizeWallet(bare);
    case 'bic': {
      const bic = compact(bare);
      return bic.length === 11 && bic.endsWith('XXX') ? bic.slice(0, 8) : bic;
    }
    case 'email':
      return bare.toLowerCase();
    case 'website':
      return bare
        .toLowerCase()
        .replace(/^https?:\/\//, '')
        .replace(/^www\./, '')
        .replace(/\/+$/, '');
    case 'phone':
      return bare.replace(/\D/g, '');
    default:
      return compact(bare);
  }
}

// ---------------------------------------------------------------------------------------------
// Checks

/**
 * IMO numbers come in two schemes of seven digits, told apart only by their check digit
 * (IMO resolution A.1117(30) for ships; the Unique Company and Registered Owner Identification
 * Number Scheme, resolution MSC.160(78), for the companies that own and manage them):
 * - a ship's check digit is the last digit of the first six weighted 7, 6, 5, 4, 3, 2;
 * - a company's is 11 less the sum of the first six weighted 8, 6, 4, 2, 9, 7 modulo 11, modulo 10.
 * The lists print both ("IMO number" of a shipping company), so the scheme follows the party.
 */
export type ImoScheme = 'ship' | 'company';

export function imoCheckDigit(digits: string, scheme: ImoScheme = 'ship'): number {
  const weights = scheme === 'ship' ? [7, 6, 5, 4, 3, 2] : [8, 6, 4, 2, 9, 7];
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(digits[i]) * weights[i]!;
  return scheme === 'ship' ? sum % 10 : (11 - (sum % 11)) % 10;
}

/**
 * What can be wrong with an identifier: its `structure` (length, characters, parts) says it cannot be
 * a number of its type at all, while a `checksum` fault (a check digit, an unallocated MMSI country)
 * leaves a well-formed number that may still be the one a list prints with a typo, or one the
 * check's tables do not know yet.
 */
export interface IdentifierFault {
  fault: 'structure' | 'checksum';
  message: string;
}

/** The IMO scheme whose check digit `n` (7 digits) passes, ship first; undefined when neither. */
export function imoSchemeOf(n: string): ImoScheme | undefined {
  if (!/^\d{7}$/.test(n)) return undefined;
  return (['ship', 'company'] as const).find((s) => Number(n[6]) === imoCheckDigit(n, s));
}

/** Checked against one scheme when the party is known to be a ship or a company, else against either. */
function imoFault(n: string, scheme: ImoScheme | undefined): IdentifierFault | undefined {
  if (!/^\d{7}$/.test(n)) return { fault: 'structure', message: 'an IMO number has 7 digits' };
  const schemes: ImoScheme[] = scheme ? [scheme] : ['ship', 'company'];
  if (schemes.some((s) => Number(n[6]) === imoCheckDigit(n, s))) return undefined;
  const expected = schemes.map((s) => `${imoCheckDigit(n, s)} for a ${s}`).join(', ');
  return { fault: 'checksum', message: `the IMO check digit does not match (the last digit would be ${expected})` };
}

/** ISO 7064 MOD 97-10 over the digits of a string whose letters count A=10 ... Z=35. */
function mod97(text: string): number {
  let rest = 0;
  for (const char of text) {
    const code = char.charCodeAt(0);
    const value = code >= 65 ? code - 55 : code - 48;
    rest = (value >= 10 ? rest * 100 + value : rest * 10 + value) % 97;
  }
  return rest;
}

/** LEI (ISO 17442): 18 letters or digits and two check digits; the whole is 1 modulo 97 (ISO 7064 MOD 97-10). */
function leiFault(n: string): IdentifierFault | undefined {
  if (!/^[0-9A-Z]{18}\d{2}$/.test(n))
    return { fault: 'structure', message: 'an LEI has 20 characters: 18 letters or digits, then 2 check digits' };
  return mod97(n) === 1
    ? undefined
    : { fault: 'checksum', message: 'the LEI check digits do not match (ISO 17442, MOD 97-10)' };
}

/**
 * ISO 3166-1 alpha-2 codes in use, and XK (Kosovo), which SWIFT and the European Commission use
 * although ISO has not assigned it.
 */
const COUNTRY_CODES = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW ' +
    'BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI ' +
    'FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN ' +
    'IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME ' +
    'MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF ' +
    'PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV ' +
    'SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK ' +
    'YE YT ZA ZM ZW'
  ).split(' '),
);

/**
 * BIC (ISO 9362): a 4-character party prefix, the ISO 3166 country of the party, a 2-character
 * location, and an optional 3-character branch (8 or 11 characters in all). The standard defines
 * no check digit; the structure and a country that exists are what can be checked.
 */
function bicFault(n: string): IdentifierFault | undefined {
  if (!/^[0-9A-Z]{4}[A-Z]{2}[0-9A-Z]{2}(?:[0-9A-Z]{3})?$/.test(n))
    return {
      fault: 'structure',
      message: 'a BIC has 8 or 11 letters or digits: party, country (2 letters), location, optional branch',
    };
  const country = n.slice(4, 6);
  return COUNTRY_CODES.has(country)
    ? undefined
    : { fault: 'structure', message: `the BIC's country code ${country} is not an ISO 3166 country` };
}

/**
 * Maritime identification digits the ITU has allocated to a country or territory (its table of
 * MIDs, used under ITU-R M.585), as ranges.
 */
const ALLOCATED_MIDS =
  '201-216 218-220 224-259 261 263-279 301 303-312 314 316 319 321 323 325 327 329-332 334 336 ' +
  '338-339 341 343 345 347-348 350-359 361-362 364 366-379 401 403 405 408 410 412-414 416-417 419 ' +
  '422-423 425 428 431-432 434 436-438 440-441 443 445 447 450-451 453 455-457 459 461 463 466 468 ' +
  '470-473 475 477-478 501 503 506 508 510-512 514-516 518 520 523 525 529 531 533 536 538 540 542 ' +
  '544 546 548 550 553 555 557 559 561 563-567 570 572 574 576-578 601 603 605 607-613 615-622 ' +
  '624-627 629-638 642 644-645 647 649-650 654-657 659-672 674-679 701 710 720 725 730 735 740 745 ' +
  '750 755 760 765 770 775';
const MIDS = new Set<number>(
  ALLOCATED_MIDS.split(' ').flatMap((range) => {
    const [from, to = from] = range.split('-').map(Number) as [number, number?];
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  }),
);

export function isAllocatedMid(mid: number): boolean {
  return MIDS.has(mid);
}

/**
 * MMSI (ITU-R M.585): nine digits holding the flag's maritime identification digits, where the
 * station's kind puts them: a ship MIDxxxxxx, a group 0MIDxxxxx, a coast station 00MIDxxxx, a
 * search-and-rescue aircraft 111MIDxxx, a craft with its parent ship 98MIDxxxx, an aid to
 * navigation 99MIDxxxx, a handheld radio 8MIDxxxxx. Distress devices (970, 972, 974) carry none.
 */
function mmsiFault(n: string): IdentifierFault | undefined {
  if (!/^\d{9}$/.test(n)) return { fault: 'structure', message: 'an MMSI has 9 digits' };
  if (/^97[024]/.test(n)) return undefined;
  const at = n.startsWith('111') ? 3 : /^(00|98|99)/.test(n) ? 2 : /^[08]/.test(n) ? 1 : 0;
  const mid = n.slice(at, at + 3);
  // The ITU allocates new MIDs now and then: an unknown one is a warning, not a refusal.
  return isAllocatedMid(Number(mid))
    ? undefined
    : { fault: 'checksum', message: `the MMSI's maritime identification digits ${mid} are allocated to no country` };
}

/**
 * What is wrong with a normalized identifier by its standard, or undefined when it passes or the
 * type has no check (passports, registrations and the rest are taken as written).
 */
export function identifierFault(
  kind: IdentifierKind,
  normalized: string,
  options: { imoScheme?: ImoScheme | undefined } = {},
): IdentifierFault | undefined {
  switch (kind) {
    case 'imo':
      return imoFault(normalized, options.imoScheme);
    case 'mmsi':
      return mmsiFault(normalized);
    case 'lei':
      return leiFault(normalized);
    case 'bic':
      return bicFault(normalized);
    default:
      return normalized ? undefined : { fault: 'structure', message: 'no letters or digits' };
  }
}

/** identifierFault's message alone: the list adapters mark any fault `valid: false`. */
export function identifierProblem(
  kind: IdentifierKind,
  normalized: string,
  options: { imoScheme?: ImoScheme | undefined } = {},
): string | undefined {
  return identifierFault(kind, normalized, options)?.message;
}
