/**
 * Countries as the publishers write them: names, ISO codes, nationality adjectives ("Afghan",
 * "Russian and Ukrainian"), and enumerations ("(1) Pakistan (2) Afghanistan"), resolved to
 * ISO 3166-1 alpha-2 where possible.
 */
import { isCountryCode, toCountryCode } from '../../countries.js';
import { addUnique, clean, splitEnumerated } from './text.js';

/** Spellings the publishers use that countries.ts does not resolve (OFAC, UN, CSL wordings). */
const SPELLINGS: Record<string, string> = {
  'united republic of tanzania': 'TZ',
  'state of palestine': 'PS',
  'korea, north': 'KP',
  'korea, south': 'KR',
  palestinian: 'PS',
  'region: gaza': 'PS',
  'region: west bank': 'PS',
  'congo, democratic republic of the': 'CD',
  'congo, republic of the': 'CG',
  'burma (myanmar)': 'MM',
  'netherlands antilles': 'AN',
  'serbia and montenegro': 'CS',
  yugoslavia: 'YU',
  'sint maarten': 'SX',
  curacao: 'CW',
  curaçao: 'CW',
};

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
  const t = clean(value);
  if (!t) return undefined;
  const spelled = SPELLINGS[t.toLowerCase()];
  if (spelled) return spelled;
  const stripped = t.replace(/^(citizen|national|nationality)\s+of\s+/i, '').replace(/[.\s]+$/, '');
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
  const t = clean(value);
  if (!t) return [];
  const out: string[] = [];
  for (const piece of splitEnumerated(t).flatMap((p) => p.split(/\s*;\s*/))) {
    const p0 = clean(piece.replace(/^(possibly|reportedly|allegedly|probably)\s+/i, ''));
    if (!p0) continue;
    const whole = countryCode(p0);
    if (whole) {
      addUnique(out, whole);
      continue;
    }
    for (const part of p0.split(/\s*(?:,|\band\b|\bor\b|、|・)\s*/i)) {
      const p = clean(part);
      if (p) addUnique(out, countryCode(p) ?? p);
    }
  }
  return out;
}
