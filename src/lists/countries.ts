/**
 * Country names to ISO 3166-1 alpha-2 codes. The English names come from the ICU data that ships
 * with Node.js (Intl.DisplayNames); the alias table adds the spellings the sanctions publishers use.
 */

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
  const t = tables();
  if (/^[A-Za-z]{2}$/.test(trimmed) && t.codes.has(trimmed.toUpperCase())) return trimmed.toUpperCase();
  const direct = t.byName.get(normalize(trimmed));
  if (direct) return direct;
  // Bilingual or qualified forms: "Russia / Russie", "Iran (Islamic Republic of)", "Syria, Arab Republic".
  for (const part of trimmed.split(/\s*[/;]\s*|\s*\(\s*|\)\s*/)) {
    const hit = part ? t.byName.get(normalize(part)) : undefined;
    if (hit) return hit;
  }
  const comma = trimmed.split(',');
  if (comma.length === 2) {
    const swapped = t.byName.get(normalize(`${comma[1]} ${comma[0]}`));
    if (swapped) return swapped;
    const first = t.byName.get(normalize(comma[0] ?? ''));
    if (first) return first;
  }
  return undefined;
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
