/**
 * Ownership percentages are held as integers in units of 0.0001 percentage point, so sums are
 * exact and the 50 % test is an integer comparison: 50.00 blocks, 49.99 and 49.9999 do not.
 * Inputs with more than four decimals are rounded to the nearest unit (documented in
 * docs/ownership-csv.md); a float sum such as 30.1 + 19.9 would not reliably equal 50.
 */
export const PERCENT_SCALE = 10_000;
/** OFAC 50 percent rule (OFAC "Revised Guidance on Entities Owned by Persons Whose Property and
 * Interests in Property Are Blocked", 13 August 2014): 50 % or more, in the aggregate. */
export const BLOCKING_THRESHOLD = 50 * PERCENT_SCALE;
export const FULL_OWNERSHIP = 100 * PERCENT_SCALE;

const NUMBER = /^\d+(?:\.\d+)?$|^\.\d+$/;

/** Parses "60", "49.99", "50.00 %", "33,5" (comma decimal) into scaled units; undefined when not a percentage. */
export function parsePercent(text: string): number | undefined {
  let figure = text.trim().replace(/\s*%$/, '').trim();
  if (/^\d+,\d+$/.test(figure)) figure = figure.replace(',', '.');
  if (!NUMBER.test(figure)) return undefined;
  return scalePercent(Number(figure));
}

export function scalePercent(value: number): number | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  return Math.round(value * PERCENT_SCALE);
}

/** Scaled units back to a number of percent, without float noise (e.g. 0.3 not 0.30000000000000004). */
export function toPercent(scaled: number): number {
  return Number((scaled / PERCENT_SCALE).toFixed(4));
}

export function formatPercent(scaled: number): string {
  return `${toPercent(scaled)}%`;
}
