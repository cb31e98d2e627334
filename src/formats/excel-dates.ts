/**
 * Dates as spreadsheets store them: Excel's serial day numbers, and the ISO day of a Date (in UTC,
 * as the XLSX reader builds them).
 */

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export function isoDate(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Excel's 1900 date system: serial 25569 is 1970-01-01 (and 45607 is 2024-11-11). */
export function excelSerialToDate(serial: number): Date {
  return new Date(Math.round((serial - 25569) * 86400000));
}

export function excelSerialToIso(serial: number): string {
  return isoDate(excelSerialToDate(serial));
}
