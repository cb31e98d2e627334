/**
 * The "same search" key of DECISIONS.md: the name Unicode-normalized (NFKC), case-folded, trimmed and
 * with runs of white space collapsed, plus the filters (entityType with business folded into
 * organization, country upper-cased, birthDate). groupByCluster is not part of it.
 */
export interface SearchFilters {
  name: string;
  entityType?: string | null;
  country?: string | null;
  birthDate?: string | null;
}

export function normalizeSearchName(name: string): string {
  return name.normalize('NFKC').toLowerCase().trim().replace(/\s+/gu, ' ');
}

export function searchKey(search: SearchFilters): string {
  const type = search.entityType === 'business' ? 'organization' : (search.entityType ?? '');
  return JSON.stringify([
    normalizeSearchName(search.name),
    type,
    (search.country ?? '').toUpperCase(),
    search.birthDate ?? '',
  ]);
}
