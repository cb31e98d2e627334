/**
 * The normalized record model every list adapter produces, whatever the publisher's format.
 * The matching engine, the store and the ownership derivation all speak this model.
 */
import type { IdentifierKind, IdentifierType } from '../identifiers/index.js';

export type { IdentifierType };

export const SOURCE_IDS = [
  'us_ofac',
  'us_csl',
  'eu_csl',
  'uk_csl',
  'un_csl',
  'au_dfat',
  'ch_seco',
  'ca_gac',
  'jp_mof',
] as const;

/** The nine official lists (api-v1.md 2.7). */
export type OfficialSourceId = (typeof SOURCE_IDS)[number];
/** Official lists plus the source derived from ownership data. */
export type SourceId = OfficialSourceId | 'us_ofac_50';

export const SOURCE_LABELS: Record<SourceId, string> = {
  us_ofac: 'US OFAC Specially Designated Nationals and Consolidated (non-SDN) lists',
  us_csl: 'US Consolidated Screening List (trade.gov)',
  eu_csl: 'EU Consolidated Financial Sanctions List',
  uk_csl: 'UK Sanctions List (FCDO / OFSI)',
  un_csl: 'UN Security Council Consolidated List',
  au_dfat: 'Australia DFAT Consolidated List',
  ch_seco: 'Switzerland SECO Sanctions List',
  ca_gac: 'Canada Consolidated Autonomous Sanctions List',
  jp_mof: 'Japan Ministry of Finance Economic Sanctions List',
  us_ofac_50: 'US OFAC 50 Percent Rule (derived from ownership data)',
};

export function isOfficialSource(value: string): value is OfficialSourceId {
  return (SOURCE_IDS as readonly string[]).includes(value);
}

export type EntityType = 'person' | 'organization' | 'vessel' | 'aircraft';

/**
 * A date as precise as the publisher gives it: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
 * Ranges ("1955 to 1958") are expanded into their years by the adapters, each marked approximate.
 */
export interface PartialDate {
  date: string;
  approximate?: boolean;
}

export type NameQuality = 'strong' | 'weak';
export type NameKind = 'primary' | 'aka' | 'fka' | 'nka' | 'variation';

export interface ListName {
  name: string;
  quality: NameQuality;
  kind: NameKind;
  /** ISO 15924 script name when the publisher says it or it is not Latin, e.g. `Cyrillic`, `Arabic`. */
  script?: string;
}

export interface Address {
  /** The address as one line, as listed (street, city, region), without the country. */
  text?: string;
  city?: string;
  /** ISO 3166-1 alpha-2 when it could be resolved. */
  country?: string;
  /** The country as the publisher wrote it. */
  countryName?: string;
}

export interface Identifier {
  type: IdentifierType;
  value: string;
  /** ISO 3166-1 alpha-2 of the issuing country when known. */
  country?: string;
  /** The publisher's own label for the document type, e.g. "Cedula No.", "Registration ID". */
  label?: string;
  note?: string;
  /**
   * The identifier's type as a screening names it (kit/identifiers.ts): `type` in the screening
   * vocabulary (swift is bic, aircraft_tail aircraft_registration, crypto_address crypto_wallet,
   * the list references list_reference), or a finer listed-only kind for `other` (email, phone,
   * bank_code...). Set by every list adapter; absent on records built elsewhere (us_ofac_50).
   */
  kind?: IdentifierKind;
  /** The value normalized for its kind (letter case, spaces, dashes, prefixes such as "IMO"): what a screening compares. */
  normalized?: string;
  /** The currency of a crypto wallet (BTC, ETH, XMR...; OFAC's XBT is BTC). */
  currency?: string;
  /**
   * Set for the kinds whose standard defines a check (IMO check digit, LEI MOD 97-10, BIC
   * structure, MMSI identification digits): false when the number fails it as printed. The lists
   * print typos; such a number is kept, and told apart by this flag rather than dropped or mended.
   */
  valid?: boolean;
}

/** Provenance of a derived (us_ofac_50) record; see api-v1.md 2.6. */
export interface Derivation {
  rule: 'ofac_50_percent';
  /** Aggregated stake held by blocked owners, in percent. */
  percentage: number;
  ownerEntityId: string;
  ownerName: string;
  chain: { lei: string; name: string }[];
  contributors: { ownerEntityId?: string; ownerLei?: string; ownerName: string; percentage: number }[];
  asOf: string;
}

export interface ListRecord {
  source: SourceId;
  /** The publisher's identifier of the entry, unique within the source (ent_num, DATAID, logicalId...). */
  id: string;
  entityType: EntityType;
  /** The primary name as listed. */
  name: string;
  /** Every other name: aliases, name variations, original-script names (not the primary name). */
  aliases: ListName[];
  birthDates: PartialDate[];
  birthPlaces: string[];
  /** ISO 3166-1 alpha-2 where resolvable, else the publisher's wording. */
  nationalities: string[];
  citizenships: string[];
  addresses: Address[];
  identifiers: Identifier[];
  programs: string[];
  /**
   * The publisher's list within the source, where a source merges several (us_ofac: `SDN` or
   * `Consolidated (non-SDN)`). The OFAC 50 percent rule starts from SDN entries only.
   */
  list?: string;
  /** YYYY-MM-DD when the publisher gives it. */
  listingDate?: string;
  gender?: 'male' | 'female';
  titles?: string[];
  positions?: string[];
  remarks?: string;
  sourceUrl?: string;
  /** Only on derived records (source us_ofac_50). */
  reason?: string;
  derivation?: Derivation;
}

/** What an adapter returns for one source. */
export interface ParsedList {
  source: OfficialSourceId;
  /** The publisher's own date of the data, YYYY-MM-DD, when the file says it. */
  publishedAt?: string;
  /** The files that were read, by file name. */
  files: string[];
  /** Human-readable description of the format read, e.g. "OFAC legacy CSV". */
  format: string;
  records: ListRecord[];
  /** Problems that did not stop the parse (an unreadable row, an unknown code). */
  warnings: string[];
}

/** A file the publisher serves, and the name it is stored under in a list directory. */
export interface PublisherFile {
  fileName: string;
  url: string;
  /** Optional files may be missing (404) without failing the download. */
  optional?: boolean;
  /**
   * When set, `url` is a page that links to the file: the newest link whose file name matches this
   * pattern (compared by name, so dated names sort by date) is downloaded under its own name.
   */
  linkPattern?: string;
}

export interface SourceAdapter {
  source: OfficialSourceId;
  label: string;
  /** The files to download, in the order of preference. Overridable by configuration. */
  publisherFiles: PublisherFile[];
  /**
   * Parse the files of one source found in `dir` (files named as the publisher names them).
   * Throws when no known file is present or a file does not parse.
   */
  parse(dir: string): Promise<ParsedList>;
}

export function emptyRecord(source: SourceId, id: string, entityType: EntityType, name: string): ListRecord {
  return {
    source,
    id,
    entityType,
    name,
    aliases: [],
    birthDates: [],
    birthPlaces: [],
    nationalities: [],
    citizenships: [],
    addresses: [],
    identifiers: [],
    programs: [],
  };
}
