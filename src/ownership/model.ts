/** Types of the ownership data read from OWNERSHIP_DIR (GLEIF files and the stakes CSV). */

export type OwnershipFormat =
  | 'gleif-lei-cdf-xml'
  | 'gleif-rr-cdf-xml'
  | 'gleif-repex-xml'
  | 'gleif-golden-copy-json'
  | 'gleif-api-json'
  | 'stakes-csv';

/** An entity known from LEI reference data (Level 1). */
export interface OwnershipEntity {
  lei: string;
  /** Legal name; undefined when the LEI only appears in relationships. */
  name?: string;
  otherNames: { name: string; type?: string; transliterated?: boolean }[];
  /** ISO 3166-1 alpha-2: legal address country, else headquarters, else legal jurisdiction. */
  country?: string;
  /** GLEIF EntityStatus (ACTIVE, INACTIVE). */
  status?: string;
}

/**
 * How a relationship is used by the derivation. Only `stake` counts toward the 50 % rule; the
 * other kinds are kept so the loader can report what the data holds and why it was not counted.
 */
export type RelationshipKind = 'stake' | 'no_percentage' | 'indirect' | 'not_ownership' | 'inactive';

export const RELATIONSHIP_KINDS: readonly RelationshipKind[] = [
  'stake',
  'no_percentage',
  'indirect',
  'not_ownership',
  'inactive',
];

/** One relationship after de-duplication (one per owner, owned entity and relationship family). */
export interface Stake {
  /** Node key of the owner: its LEI, or a list entity id (`us_ofac:12345`) from the CSV. */
  owner: string;
  ownerLei?: string;
  /** A list entry named directly by the CSV's owner_entity_id column. */
  ownerEntityId?: string;
  ownedLei: string;
  /** Percent (e.g. 49.99); undefined when the relationship carries no percentage. */
  percentage?: number;
  kind: RelationshipKind;
  /** GLEIF RelationshipType, or `STAKE` for CSV rows. */
  type: string;
  /** YYYY-MM-DD of the record (GLEIF LastUpdateDate, CSV as_of) when known. */
  asOf?: string;
}

export interface OwnershipFileInfo {
  /** Path relative to the directory that was loaded. */
  file: string;
  format: OwnershipFormat | 'ignored';
  records: number;
  /** Content date the file states (header ContentDate, publishDate, latest as_of), YYYY-MM-DD. */
  contentDate?: string;
}
