import { validationError } from './errors.js';

/** Dates as requests write them (POST /screen's birthDate, the dateFrom/dateTo filters of the list routes). */

/** Whether a YYYY-MM-DD date exists in the calendar (no 31 April, 29 February only in leap years). */
export function isRealDate(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
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
