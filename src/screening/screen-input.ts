import type { EntityType } from '../lists/index.js';
import { validationError } from '../infra/errors.js';
import { type IdentifierWarning, type SearchIdentifier, validateIdentifiers } from './identifiers-input.js';
import { isRequestCountryCode } from '../identifiers/index.js';
import type { ScreenRequestBody } from './screening-schemas.js';

/** The checks of DECISIONS.md ("Validation") beyond what the route schemas can say; each error names its field. */

/** DECISIONS.md: 1 to 500 characters after trimming. */
export const MAX_NAME_LENGTH = 500;

/** A POST /screen request after validation: what is screened and stored. */
export interface ScreenInput {
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

export function isRealDate(value: string): boolean {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export function validateScreenInput(body: ScreenRequestBody, now: Date): ScreenInput {
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

/** Parses an ISO 8601 date or date-time; a bare date at the end of a range includes that whole day. */
export function parseDateBound(field: string, value: string, endOfDay: boolean): string {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  if (!dateOnly && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) {
    throw validationError(field, 'must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone');
  }
  if (dateOnly && !isRealDate(value)) throw validationError(field, `"${value}" is not a calendar date`);
  const date = new Date(dateOnly ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(date.getTime())) throw validationError(field, 'is not a valid date');
  if (dateOnly && endOfDay) date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}
