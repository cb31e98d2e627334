import { canonicalIdentifiers, type SearchIdentifier } from './identifiers-input.js';

/**
 * The "same search" key of DECISIONS.md: the name Unicode-normalized (NFKC), case-folded, trimmed and
 * with runs of white space collapsed, plus the filters (entityType with business folded into
 * organization, country upper-cased, birthDate). groupByCluster is not part of it.
 *
 * Identifiers (issue 15) are filters too: a search for "Ocean Star" with IMO 9123463 is not the
 * search for "Ocean Star" alone. They enter as their type, normalized value, country and currency,
 * sorted, so that "IMO 9123463" and "9123463", or two identifiers in either order, are one search.
 * A search without identifiers keeps the key it always had, so stored keys stay valid.
 */
export interface SearchFilters {
  name: string;
  entityType?: string | null;
  country?: string | null;
  birthDate?: string | null;
  identifiers?: readonly SearchIdentifier[] | null;
}

export function normalizeSearchName(name: string): string {
  return name.normalize('NFKC').toLowerCase().trim().replace(/\s+/gu, ' ');
}

export function searchKey(search: SearchFilters): string {
  const type = search.entityType === 'business' ? 'organization' : (search.entityType ?? '');
  const ids = search.identifiers?.length ? [canonicalIdentifiers(search.identifiers)] : [];
  return JSON.stringify([
    normalizeSearchName(search.name),
    type,
    (search.country ?? '').toUpperCase(),
    search.birthDate ?? '',
    ...ids,
  ]);
}
