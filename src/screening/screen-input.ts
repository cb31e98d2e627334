import type { EntityType } from '../lists/index.js';
import { validationError } from '../infra/errors.js';
import { isRealDate } from '../infra/request-dates.js';
import { type IdentifierWarning, type SearchIdentifier, validateIdentifiers } from './identifiers-input.js';
import { isRequestCountryCode } from '../identifiers/index.js';
import type { ScreenRequestBody } from './screening-schemas.js';

/** The checks of DECISIONS.md ("Validation") beyond what the route schemas can say; each error names its field. */

/** DECISIONS.md: 1 to 500 characters after trimming. */
export const MAX_NAME_LENGTH = 500;

/** A POST /screen request after validation: what is screened and stored. */
export interface ScreeningRequest {
  name: string;
  entityType: EntityType | null;
  country: string | null;
  birthDate: string | null;
  groupByCluster: boolean;
  /** Whether the request set groupByCluster: left out, the screening profile's default applies. */
  groupByClusterGiven: boolean;
  /** Checked and normalized (identifiers-input.ts); empty when the request names none. */
  identifiers: SearchIdentifier[];
  /** Identifiers screened as written although they fail their check (identifiers-input.ts); empty when none. */
  warnings: IdentifierWarning[];
  /** The customer's reference in the caller's own systems (issue 13): 1 to 200 characters after trimming. */
  externalId: string | null;
}

/** `externalId`: 1 to 200 characters after trimming. */
export const MAX_EXTERNAL_ID_LENGTH = 200;

/** The customer reference of POST /screen and POST /monitors, trimmed; null when absent. */
export function validateExternalId(value: string | undefined): string | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed.length === 0) throw validationError('externalId', 'must not be empty');
  if ([...trimmed].length > MAX_EXTERNAL_ID_LENGTH)
    throw validationError('externalId', `must be at most ${MAX_EXTERNAL_ID_LENGTH} characters`);
  return trimmed;
}

export function validateScreeningRequest(body: ScreenRequestBody, now: Date): ScreeningRequest {
  const name = body.name.trim();
  if (name.length === 0) throw validationError('name', 'must not be empty');
  if ([...name].length > MAX_NAME_LENGTH)
    throw validationError('name', `must be at most ${MAX_NAME_LENGTH} characters`);
  let country: string | null = null;
  if (body.country !== undefined) {
    country = body.country.toUpperCase();
    if (!isRequestCountryCode(country)) {
      const hint = country === 'UK' ? ' (the United Kingdom is GB)' : '';
      throw validationError('country', `"${body.country}" is not an assigned ISO 3166-1 alpha-2 country code${hint}`);
    }
  }
  let birthDate: string | null = null;
  if (body.birthDate !== undefined) {
    if (!isRealDate(body.birthDate))
      throw validationError('birthDate', `"${body.birthDate}" is not a calendar date (YYYY-MM-DD)`);
    if (body.birthDate > now.toISOString().slice(0, 10))
      throw validationError('birthDate', 'must not be in the future');
    birthDate = body.birthDate;
  }
  const entityType =
    body.entityType === undefined ? null : body.entityType === 'business' ? 'organization' : body.entityType;
  const warnings: IdentifierWarning[] = [];
  return {
    name,
    entityType: entityType as EntityType | null,
    country,
    birthDate,
    groupByCluster: body.groupByCluster ?? false,
    identifiers: validateIdentifiers(body.identifiers, entityType as EntityType | null, 'identifiers', warnings),
    warnings,
    groupByClusterGiven: body.groupByCluster !== undefined,
    externalId: validateExternalId(body.externalId),
  };
}
