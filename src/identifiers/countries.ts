/**
 * Countries: ISO 3166-1 alpha-2 codes, the names they resolve from, and the publishers' wordings.
 * The English names come from the ICU data that ships with Node.js (Intl.DisplayNames); the alias
 * table adds the spellings the sanctions publishers use, the demonym table their nationality
 * adjectives ("Afghan", "Russian and Ukrainian"). The one country module: the list adapters, the
 * matching engine and the API's request validation all read countries here.
 */
import { addUnique, clean, splitEnumerated } from '../text/index.js';

const ALIASES: Record<string, string> = {
  'russian federation': 'RU',
  russia: 'RU',
  'iran islamic republic of': 'IR',
  'iran (islamic republic of)': 'IR',
  iran: 'IR',
  'korea north': 'KP',
  'north korea': 'KP',
  'korea democratic people s republic of': 'KP',
  'democratic people s republic of korea': 'KP',
  dprk: 'KP',
  'korea south': 'KR',
  'south korea': 'KR',
  'korea republic of': 'KR',
  'republic of korea': 'KR',
  burma: 'MM',
  myanmar: 'MM',
  'syrian arab republic': 'SY',
  syria: 'SY',
  'lao people s democratic republic': 'LA',
  laos: 'LA',
  'viet nam': 'VN',
  vietnam: 'VN',
  'congo democratic republic of the': 'CD',
  'democratic republic of the congo': 'CD',
  'congo, democratic republic of the': 'CD',
  drc: 'CD',
  'congo republic of the': 'CG',
  'republic of the congo': 'CG',
  congo: 'CG',
  'cote d ivoire': 'CI',
  'ivory coast': 'CI',
  'united states': 'US',
  'united states of america': 'US',
  usa: 'US',
  'u s a': 'US',
  'united kingdom': 'GB',
  uk: 'GB',
  'great britain': 'GB',
  'united kingdom of great britain and northern ireland': 'GB',
  'tanzania united republic of': 'TZ',
  tanzania: 'TZ',
  'venezuela bolivarian republic of': 'VE',
  venezuela: 'VE',
  'bolivia plurinational state of': 'BO',
  bolivia: 'BO',
  'moldova republic of': 'MD',
  moldova: 'MD',
  'palestinian territory occupied': 'PS',
  'palestinian territories': 'PS',
  palestine: 'PS',
  'west bank': 'PS',
  gaza: 'PS',
  'gaza strip': 'PS',
  turkey: 'TR',
  turkiye: 'TR',
  türkiye: 'TR',
  'czech republic': 'CZ',
  czechia: 'CZ',
  macedonia: 'MK',
  'north macedonia': 'MK',
  'the former yugoslav republic of macedonia': 'MK',
  'bosnia and herzegovina': 'BA',
  'bosnia herzegovina': 'BA',
  taiwan: 'TW',
  'taiwan province of china': 'TW',
  'hong kong': 'HK',
  'hong kong sar': 'HK',
  'hong kong sar china': 'HK',
  macau: 'MO',
  macao: 'MO',
  china: 'CN',
  "people's republic of china": 'CN',
  'people s republic of china': 'CN',
  'the gambia': 'GM',
  gambia: 'GM',
  'the bahamas': 'BS',
  bahamas: 'BS',
  kyrgyzstan: 'KG',
  'kyrgyz republic': 'KG',
  brunei: 'BN',
  'brunei darussalam': 'BN',
  'cape verde': 'CV',
  'cabo verde': 'CV',
  'east timor': 'TL',
  'timor leste': 'TL',
  eswatini: 'SZ',
  swaziland: 'SZ',
  'holy see': 'VA',
  'vatican city': 'VA',
  'micronesia federated states of': 'FM',
  micronesia: 'FM',
  'saint kitts and nevis': 'KN',
  'st kitts and nevis': 'KN',
  'saint lucia': 'LC',
  'st lucia': 'LC',
  'saint vincent and the grenadines': 'VC',
  'st vincent and the grenadines': 'VC',
  'united arab emirates': 'AE',
  uae: 'AE',
  crimea: 'UA',
  'region crimea': 'UA',
  kosovo: 'XK',
  'netherlands antilles': 'AN',
  'serbia and montenegro': 'CS',
  yugoslavia: 'YU',
  'soviet union': 'SU',
  ussr: 'SU',
  'sudan south': 'SS',
  'south sudan': 'SS',
  'british virgin islands': 'VG',
  'virgin islands british': 'VG',
  'virgin islands u s': 'VI',
  curacao: 'CW',
  'sint maarten': 'SX',
  'isle of man': 'IM',
  korea: 'KR',
  belarus: 'BY',
  byelorussia: 'BY',
  holland: 'NL',
  'the netherlands': 'NL',
  'libyan arab jamahiriya': 'LY',
  libya: 'LY',
  // The OFAC, UN and CSL wordings (compared after normalize(), like every alias). "Palestinian" is
  // a demonym only: as an alias it would make the word a country in names (matching/name-score.ts).
  'united republic of tanzania': 'TZ',
  'state of palestine': 'PS',
  'korea, north': 'KP',
  'korea, south': 'KR',
  'region: gaza': 'PS',
  'region: west bank': 'PS',
  'congo, republic of the': 'CG',
  'burma (myanmar)': 'MM',
  curaçao: 'CW',
};

function normalize(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9']+/g, ' ')
    .replace(/'/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

let byName: Map<string, string> | undefined;
let codes: Set<string> | undefined;

function tables(): { byName: Map<string, string>; codes: Set<string> } {
  if (byName && codes) return { byName, codes };
  byName = new Map();
  codes = new Set();
  const display = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      let label: string | undefined;
      try {
        label = display.of(code);
      } catch {
        label = undefined;
      }
      if (!label || label === code) continue;
      codes.add(code);
      byName.set(normalize(label), code);
    }
  }
  for (const [name, code] of Object.entries(ALIASES)) {
    byName.set(normalize(name), code);
    codes.add(code);
  }
  return { byName, codes };
}

/** True for a known ISO 3166-1 alpha-2 code (upper case), including user-assigned XK (Kosovo). */
export function isCountryCode(value: string): boolean {
  return tables().codes.has(value);
}

/**
 * Resolve a country name or code to ISO 3166-1 alpha-2, or undefined when it is not recognized.
 * Accepts "Germany", "GERMANY", "Iran (Islamic Republic of)", "DE", "Russia / Russie" (first part).
 */
export function toCountryCode(value: string | undefined | null): string | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (!trimmed) return undefined;
  const table = tables();
  if (/^[A-Za-z]{2}$/.test(trimmed) && table.codes.has(trimmed.toUpperCase())) return trimmed.toUpperCase();
  const direct = table.byName.get(normalize(trimmed));
  if (direct) return direct;
  // Bilingual or qualified forms: "Russia / Russie", "Iran (Islamic Republic of)", "Syria, Arab Republic".
  for (const part of trimmed.split(/\s*[/;]\s*|\s*\(\s*|\)\s*/)) {
    const hit = part ? table.byName.get(normalize(part)) : undefined;
    if (hit) return hit;
  }
  const comma = trimmed.split(',');
  if (comma.length === 2) {
    const swapped = table.byName.get(normalize(`${comma[1]} ${comma[0]}`));
    if (swapped) return swapped;
    const first = table.byName.get(normalize(comma[0] ?? ''));
    if (first) return first;
  }
  return undefined;
}

/**
 * Codes the country table knows (it also reads old list data) that are not officially assigned
 * ISO 3166-1 alpha-2 codes, so a request must not use them: exceptionally reserved (AC, CP, CQ, DG,
 * EA, EU, EZ, FX, IC, TA, UK, UN), transitionally reserved or withdrawn (AN, BU, CS, DD, DY, HV, NH,
 * RH, SU, TP, VD, YD, YU, ZR) and user-assigned (QO, XA, XB, ZZ). XK (Kosovo) stays accepted: it is
 * user-assigned but used by every sanctions list.
 */
const NOT_ASSIGNED = new Set(
  'AC CP CQ DG EA EU EZ FX IC TA UK UN AN BU CS DD DY HV NH RH SU TP VD YD YU ZR QO XA XB ZZ'.split(' '),
);

/** True for an officially assigned ISO 3166-1 alpha-2 code in upper case, or XK. */
export function isRequestCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !NOT_ASSIGNED.has(code) && isCountryCode(code);
}

/** The English name of an ISO alpha-2 code. */
export function countryName(code: string): string | undefined {
  try {
    const display = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    return display.of(code.toUpperCase()) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Nationality adjectives the publishers write instead of country names. */
const DEMONYMS: Record<string, string> = {
  afghan: 'AF',
  albanian: 'AL',
  algerian: 'DZ',
  american: 'US',
  angolan: 'AO',
  argentine: 'AR',
  argentinian: 'AR',
  armenian: 'AM',
  australian: 'AU',
  austrian: 'AT',
  azerbaijani: 'AZ',
  bahraini: 'BH',
  bangladeshi: 'BD',
  belarusian: 'BY',
  belarussian: 'BY',
  belgian: 'BE',
  bosnian: 'BA',
  brazilian: 'BR',
  british: 'GB',
  bulgarian: 'BG',
  burmese: 'MM',
  burundian: 'BI',
  cambodian: 'KH',
  cameroonian: 'CM',
  canadian: 'CA',
  'central african': 'CF',
  chadian: 'TD',
  chilean: 'CL',
  chinese: 'CN',
  colombian: 'CO',
  comoran: 'KM',
  comorian: 'KM',
  congolese: 'CD',
  croatian: 'HR',
  cuban: 'CU',
  cypriot: 'CY',
  czech: 'CZ',
  danish: 'DK',
  djiboutian: 'DJ',
  dutch: 'NL',
  ecuadorian: 'EC',
  egyptian: 'EG',
  emirati: 'AE',
  eritrean: 'ER',
  estonian: 'EE',
  ethiopian: 'ET',
  filipino: 'PH',
  finnish: 'FI',
  french: 'FR',
  gambian: 'GM',
  georgian: 'GE',
  german: 'DE',
  ghanaian: 'GH',
  greek: 'GR',
  guinean: 'GN',
  haitian: 'HT',
  hungarian: 'HU',
  indian: 'IN',
  indonesian: 'ID',
  iranian: 'IR',
  iraqi: 'IQ',
  irish: 'IE',
  israeli: 'IL',
  italian: 'IT',
  ivorian: 'CI',
  jamaican: 'JM',
  japanese: 'JP',
  jordanian: 'JO',
  kazakh: 'KZ',
  kazakhstani: 'KZ',
  kenyan: 'KE',
  korean: 'KR',
  'north korean': 'KP',
  kosovar: 'XK',
  kuwaiti: 'KW',
  kyrgyz: 'KG',
  lao: 'LA',
  laotian: 'LA',
  latvian: 'LV',
  lebanese: 'LB',
  liberian: 'LR',
  libyan: 'LY',
  lithuanian: 'LT',
  macedonian: 'MK',
  malaysian: 'MY',
  malian: 'ML',
  maldivian: 'MV',
  maltese: 'MT',
  mauritanian: 'MR',
  mexican: 'MX',
  moldovan: 'MD',
  mongolian: 'MN',
  montenegrin: 'ME',
  moroccan: 'MA',
  mozambican: 'MZ',
  myanmar: 'MM',
  namibian: 'NA',
  nepalese: 'NP',
  nepali: 'NP',
  nicaraguan: 'NI',
  nigerian: 'NG',
  nigerien: 'NE',
  norwegian: 'NO',
  omani: 'OM',
  pakistani: 'PK',
  palestinian: 'PS',
  panamanian: 'PA',
  peruvian: 'PE',
  polish: 'PL',
  portuguese: 'PT',
  qatari: 'QA',
  romanian: 'RO',
  russian: 'RU',
  rwandan: 'RW',
  saudi: 'SA',
  'saudi arabian': 'SA',
  senegalese: 'SN',
  serbian: 'RS',
  'sierra leonean': 'SL',
  singaporean: 'SG',
  slovak: 'SK',
  slovenian: 'SI',
  somali: 'SO',
  'south african': 'ZA',
  'south sudanese': 'SS',
  spanish: 'ES',
  'sri lankan': 'LK',
  sudanese: 'SD',
  swedish: 'SE',
  swiss: 'CH',
  syrian: 'SY',
  taiwanese: 'TW',
  tajik: 'TJ',
  tajikistani: 'TJ',
  tanzanian: 'TZ',
  thai: 'TH',
  trinidadian: 'TT',
  tunisian: 'TN',
  turkish: 'TR',
  turkmen: 'TM',
  ugandan: 'UG',
  ukrainian: 'UA',
  uruguayan: 'UY',
  uzbek: 'UZ',
  uzbekistani: 'UZ',
  venezuelan: 'VE',
  vietnamese: 'VN',
  yemeni: 'YE',
  yemenite: 'YE',
  zambian: 'ZM',
  zimbabwean: 'ZW',
  bahamian: 'BS',
  barbadian: 'BB',
  belizean: 'BZ',
  beninese: 'BJ',
  bhutanese: 'BT',
  bolivian: 'BO',
  botswanan: 'BW',
  bruneian: 'BN',
  burkinabe: 'BF',
  'cape verdean': 'CV',
  'costa rican': 'CR',
  dominican: 'DO',
  'equatorial guinean': 'GQ',
  fijian: 'FJ',
  gabonese: 'GA',
  guatemalan: 'GT',
  guyanese: 'GY',
  honduran: 'HN',
  icelandic: 'IS',
  luxembourgish: 'LU',
  malagasy: 'MG',
  malawian: 'MW',
  mauritian: 'MU',
  'new zealander': 'NZ',
  paraguayan: 'PY',
  salvadoran: 'SV',
  seychellois: 'SC',
  surinamese: 'SR',
  togolese: 'TG',
  tongan: 'TO',
  dprk: 'KP',
  soviet: 'SU',
  yugoslav: 'YU',
  cypriote: 'CY',
  sahrawi: 'EH',
  kirghiz: 'KG',
};

/** ISO2 for a country name, code or nationality adjective; undefined when unknown. */
export function countryCode(value: string | undefined | null): string | undefined {
  // An ISO code in capitals is a code, although "NA" (Namibia) also reads as "not available".
  const code = value?.trim();
  if (code && /^[A-Z]{2}$/.test(code) && isCountryCode(code)) return code;
  const cleaned = clean(value);
  if (!cleaned) return undefined;
  const stripped = cleaned.replace(/^(citizen|national|nationality)\s+of\s+/i, '').replace(/[.\s]+$/, '');
  const demonym = DEMONYMS[stripped.toLowerCase().replace(/\s+(national|citizen)$/, '')];
  if (demonym) return demonym;
  // The ICU names write "Antigua & Barbuda", "Turks & Caicos Islands"; the publishers spell "and".
  return toCountryCode(stripped) ?? toCountryCode(stripped.replace(/\s+and\s+/gi, ' & '));
}

/** ISO2 when the value resolves, else the publisher's wording. */
export function countryOrWording(value: string): string {
  return countryCode(value) ?? value;
}

/**
 * One or several countries from a publisher's wording ("Russian and Ukrainian", "(1) Pakistan (2)
 * Afghanistan", "Syria; Lebanon"): ISO2 where resolvable, else the wording itself.
 */
export function countryList(value: string | undefined | null): string[] {
  const cleaned = clean(value);
  if (!cleaned) return [];
  const out: string[] = [];
  for (const piece of splitEnumerated(cleaned).flatMap((p) => p.split(/\s*;\s*/))) {
    const firstPiece = clean(piece.replace(/^(possibly|reportedly|allegedly|probably)\s+/i, ''));
    if (!firstPiece) continue;
    const whole = countryCode(firstPiece);
    if (whole) {
      addUnique(out, whole);
      continue;
    }
    for (const part of firstPiece.split(/\s*(?:,|\band\b|\bor\b|、|・)\s*/i)) {
      const cleanPart = clean(part);
      if (cleanPart) addUnique(out, countryCode(cleanPart) ?? cleanPart);
    }
  }
  return out;
}
