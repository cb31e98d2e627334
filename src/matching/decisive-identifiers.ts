/**
 * Decisive identifiers (issue 27): numbers that name one party in the world, so that a listing
 * carrying the query's number is that party whatever the names say. Renaming is the evasion
 * identifier screening exists to defeat: a sanctioned company that trades under a new name keeps
 * its LEI and its BIC, a ship its IMO number. Numbers unique only within their issuing country
 * (passport, national id, tax id, registration) decide only when both sides name the same country;
 * otherwise they corroborate a compatible name (corroboration.ts).
 */
import { imoSchemeOf, normalizeCurrency } from '../identifiers/index.js';
import type { EntityType } from '../lists/index.js';
import type { IdentifierEvidence } from './identifier-index.js';

export type MatchedIdentifier = NonNullable<IdentifierEvidence['matched']>;

/**
 * Why the listing's copy of the query's number names the listed party itself, or undefined when it
 * does not (then the name has to agree). The reasons are the standards' own scope:
 * - LEI: ISO 17442, one code per legal entity, never reassigned;
 * - BIC: ISO 9362, one code per institution (branches share its first 8 characters, the key);
 * - IMO: a ship's number (resolution A.1117(30)) stays with the hull for life; a company's
 *   (MSC.160(78)) with the company or registered owner. A ship's number on a listing that holds
 *   several (a company listing its fleet) names a ship of the fleet, not the listed company;
 * - MMSI: ITU-R M.585, one per station at a time;
 * - a wallet address: one key holder; not when both sides name different currencies;
 * - an aircraft's manufacturer serial: unique with the type, which the listed aircraft gives.
 */
export function decisiveReason(matched: MatchedIdentifier, listed: EntityType): string | undefined {
  const { query, listed: id, ofType } = matched;
  switch (query.type) {
    case 'lei':
      return 'an LEI names one legal entity in the world, ISO 17442';
    case 'bic':
      return 'a BIC names one institution, ISO 9362';
    case 'mmsi':
      return 'an MMSI names one maritime radio station, ITU-R M.585';
    case 'imo':
      if (listed === 'vessel') return 'a ship keeps its IMO number for life';
      if (imoSchemeOf(query.value) === 'company') return 'an IMO company number names one company or registered owner';
      return ofType === 1 ? 'a ship keeps its IMO number for life' : undefined;
    case 'crypto_wallet': {
      const currency = id.currency ? normalizeCurrency(id.currency) : undefined;
      if (query.currency && currency && query.currency !== currency) return undefined;
      return 'a wallet address is held by whoever holds its key';
    }
    case 'aircraft_serial':
      return listed === 'aircraft' ? "an airframe keeps its manufacturer's serial number for life" : undefined;
    case 'passport':
    case 'national_id':
    case 'registration':
    case 'tax_id':
      return query.country !== undefined && id.country === query.country
        ? `the same issuing country (${query.country})`
        : undefined;
    default:
      return undefined;
  }
}
