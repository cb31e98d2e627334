/**
 * Dates as the publishers write them, turned into the model's partial dates (`YYYY`, `YYYY-MM`,
 * `YYYY-MM-DD`). Two readers: `parseDate` for a field that holds one date ("12 Mar 1957",
 * "circa 1960", "1955 to 1958") and `findDates` for free text that may hold several.
 */
import { clean, excelSerialToIso, isoDate, splitEnumerated, type CellValue } from '../../../formats/index.js';
import type { PartialDate } from '../../model.js';

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

function pad(n: number | string): string {
  return String(n).padStart(2, '0');
}

function validYmd(y: number, m?: number, d?: number): boolean {
  if (!Number.isInteger(y) || y < 1800 || y > 2100) return false;
  if (m === undefined) return true;
  if (m < 1 || m > 12) return false;
  if (d === undefined) return true;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function ymd(y: number, m?: number, d?: number): string | undefined {
  if (!validYmd(y, m, d)) return undefined;
  if (m === undefined) return String(y);
  if (d === undefined) return `${y}-${pad(m)}`;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/**
 * A date from its numeric parts, as precise as they go: a month or day that is 0 or absent is
 * unknown. Undefined for an impossible date (a 31 April, a year before 1800).
 */
export function partialDate(year: number, month?: number, day?: number): string | undefined {
  const knownMonth = month && month > 0 ? month : undefined;
  return ymd(year, knownMonth, knownMonth !== undefined && day && day > 0 ? day : undefined);
}

/**
 * The years of a range ("1955 to 1958"), each marked approximate: the model's rule for a range
 * of birth years. A range wider than 30 years says little; only its ends are kept.
 */
export function yearsBetween(from: number, to: number): PartialDate[] {
  if (to < from) [from, to] = [to, from];
  if (to - from > 30)
    return [
      { date: String(from), approximate: true },
      { date: String(to), approximate: true },
    ];
  const out: PartialDate[] = [];
  for (let y = from; y <= to; y++) if (validYmd(y)) out.push({ date: String(y), approximate: true });
  return out;
}

/**
 * Adds dates not present yet. The same date given exact and approximate is kept once, exact: the
 * exact statement says more.
 */
export function addDates(target: PartialDate[], dates: PartialDate[]): void {
  for (const date of dates) {
    const existing = target.find((x) => x.date === date.date);
    if (existing) {
      if (!date.approximate) delete existing.approximate;
      continue;
    }
    target.push(date.approximate ? { date: date.date, approximate: true } : { date: date.date });
  }
}

/**
 * One date as a field holds it: `1957-03-12`, `12 Mar 1957`, `Mar 1957`, `1962`, `circa 1960`,
 * `1955 to 1958`, `between 1955 and 1958`, `12/03/1957` (dd/mm/yyyy); `00` for an unknown day or
 * month. [] when the whole field is not a date.
 */
export function parseDate(raw: string | undefined): PartialDate[] {
  if (!raw) return [];
  let text = raw.trim().replace(/\.$/, '');
  let approximate = false;
  const circa = /^(?:circa|approx(?:imately|\.)?|about|ca\.?|c\.)\s+/i.exec(text);
  if (circa) {
    approximate = true;
    text = text.slice(circa[0].length);
  }
  const range = /^(?:between\s+)?(\d{4})\s*(?:to|-|–|and)\s*(\d{4})$/i.exec(text);
  if (range) return yearsBetween(Number(range[1]), Number(range[2]));
  const mark = (date: string): PartialDate[] => [approximate ? { date, approximate } : { date }];
  const month = (name: string): number | undefined => MONTHS[name.toLowerCase()];
  let match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (match) {
    if (match[2] === '00') return mark(match[1]!);
    if (match[3] === '00') return mark(`${match[1]}-${match[2]}`);
    return mark(`${match[1]}-${match[2]}-${match[3]}`);
  }
  match = /^(\d{4})-(\d{2})$/.exec(text);
  if (match) return mark(`${match[1]}-${match[2]}`);
  match = /^(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?\s+(\d{4})$/.exec(text);
  if (match && month(match[2]!)) return mark(`${match[3]}-${pad(month(match[2]!)!)}-${pad(match[1]!)}`);
  match = /^([A-Za-z]{3})[a-z]*\.?\s+(\d{4})$/.exec(text);
  if (match && month(match[1]!)) return mark(`${match[2]}-${pad(month(match[1]!)!)}`);
  match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (match) {
    if (match[2] === '00' || match[2] === '0') return mark(match[3]!);
    if (match[1] === '00' || match[1] === '0') return mark(`${match[3]}-${pad(match[2]!)}`);
    return mark(`${match[3]}-${pad(match[2]!)}-${pad(match[1]!)}`);
  }
  match = /^(\d{4})$/.exec(text);
  if (match) return mark(match[1]!);
  return [];
}

/** "dd/mm/yyyy" as OFSI and FCDO write it; "00", "dd", "mm" stand for unknown parts. */
export function parseDmy(text: string | undefined): string | undefined {
  const cleaned = clean(text);
  if (!cleaned) return undefined;
  const match = /^(\d{1,2}|dd|00)[/.-](\d{1,2}|mm|00)[/.-](\d{4})$/i.exec(cleaned);
  if (!match) {
    if (/^\d{4}$/.test(cleaned)) return ymd(Number(cleaned));
    if (/^\d{4}-\d{2}-\d{2}/.test(cleaned))
      return ymd(Number(cleaned.slice(0, 4)), Number(cleaned.slice(5, 7)), Number(cleaned.slice(8, 10)));
    return undefined;
  }
  const year = Number(match[3]);
  const month = /^\d+$/.test(match[2]!) && Number(match[2]) > 0 ? Number(match[2]) : undefined;
  const day = month !== undefined && /^\d+$/.test(match[1]!) && Number(match[1]) > 0 ? Number(match[1]) : undefined;
  return ymd(year, month, day);
}

/** `MM/DD/YYYY`, OFAC's Publish_Date, to `YYYY-MM-DD`. */
export function parseMdy(raw: string | undefined): string | undefined {
  const match = raw ? /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(raw.trim()) : null;
  return match ? `${match[3]}-${pad(match[1]!)}-${pad(match[2]!)}` : undefined;
}

/** The first `YYYY-MM-DD` in the text (ISO timestamps included). */
export function firstIsoDay(raw: string | undefined): string | undefined {
  return raw ? /\d{4}-\d{2}-\d{2}/.exec(raw)?.[0] : undefined;
}

const MON = '(jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec)[a-z]*\\.?';
const DATE_TOKEN = new RegExp(
  [
    '(?<iso>(?<!\\d)(\\d{4})-(\\d{1,2})-(\\d{1,2})(?!\\d))',
    '(?<dmy>(?<![\\d/])(\\d{1,2}|dd|00)[/.](\\d{1,2}|mm|00)[/.](\\d{4})(?!\\d))',
    `(?<dmon>(?<!\\d)(\\d{1,2})\\.?\\s*${MON},?\\s*(\\d{4})(?!\\d))`,
    `(?<mond>\\b${MON}\\s+(\\d{1,2}),?\\s+(\\d{4})(?!\\d))`,
    `(?<mony>\\b${MON}[\\s,-]*(\\d{4})(?!\\d))`,
    '(?<range>(?<!\\d)(\\d{4})\\s*年?\\s*(?:-|–|—|~|～|to|and|until|から)\\s*(\\d{4})(?!\\d))',
    '(?<jp>(\\d{4})\\s*年(?:\\s*(\\d{1,2})\\s*月(?:\\s*(\\d{1,2})\\s*日)?)?)',
    '(?<ym>(?<!\\d)(\\d{4})-(\\d{2})(?![\\d-]))',
    '(?<year>(?<!\\d)(1[89]\\d\\d|20\\d\\d)(?!\\d))',
  ].join('|'),
  'gi',
);

/** Words that make every date of an item approximate, in English and Japanese (頃, 約, 推定...). */
const APPROX = /approx|circa|\bca\.|\babout\b|\baround\b|\bbetween\b|頃|ごろ|約|推定|early|late|mid|の間/i;

/** Dates found in one text item (no enumeration splitting). */
function scanDates(item: string): PartialDate[] {
  const approx = APPROX.test(item);
  const out: PartialDate[] = [];
  const add = (date: string | undefined): void => {
    if (date) out.push(approx ? { date, approximate: true } : { date });
  };
  const month = (name: string): number | undefined => MONTHS[name.toLowerCase().slice(0, 3)];
  DATE_TOKEN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = DATE_TOKEN.exec(item))) {
    const groups = match.groups!;
    const num = (i: number): number => Number(match![i]);
    if (groups.iso) add(ymd(num(2), num(3), num(4)));
    else if (groups.dmy) add(parseDmy(`${match[6]}/${match[7]}/${match[8]}`));
    else if (groups.dmon) add(ymd(num(12), month(match[11]!), num(10)));
    else if (groups.mond) add(ymd(num(16), month(match[14]!), num(15)));
    else if (groups.mony) add(ymd(num(19), month(match[18]!)));
    else if (groups.range) out.push(...yearsBetween(num(21), num(22)));
    else if (groups.jp)
      add(ymd(num(24), match[25] ? num(25) : undefined, match[25] && match[26] ? num(26) : undefined));
    else if (groups.ym) add(ymd(num(28), num(29)));
    else if (groups.year) add(ymd(num(31)));
  }
  return out;
}

/**
 * Every date in a publisher's free text: "a) Approximately 1955-1958 b) 1960", "26 Dec. 1955",
 * "19/08/1974", "Between 1975 and 1979", "1963年頃", "(a)1958年 (b)1959年",
 * "1965-07-15 OR 1969-09-28". Ranges become their years, marked approximate.
 */
export function findDates(text: string | undefined | null): PartialDate[] {
  const cleaned = clean(text ?? undefined);
  if (!cleaned) return [];
  const out: PartialDate[] = [];
  for (const item of splitEnumerated(cleaned).flatMap((s) => s.split(/\s*(?:;|>>|\n|\bor\b|又は|若しくは|、)\s*/i))) {
    addDates(out, scanDates(item));
  }
  return out;
}

/** A date cell that may hold an Excel date, a serial number, a year or free text. */
export function parseDateCell(value: CellValue | undefined): PartialDate[] {
  if (value === null || value === undefined) return [];
  if (value instanceof Date) return [{ date: isoDate(value) }];
  if (typeof value === 'number') {
    if (value >= 1800 && value <= 2100) return [{ date: String(value) }];
    if (value > 0 && value < 80000) return [{ date: excelSerialToIso(value) }];
    return [];
  }
  return findDates(String(value));
}

/** The first whole date (YYYY-MM-DD) in a text: "Listed on 12 Apr. 2000 (amended ...)". */
export function firstFullDate(text: string | undefined): string | undefined {
  if (!text) return undefined;
  return scanDates(text).find((d) => d.date.length === 10)?.date;
}
