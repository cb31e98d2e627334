/**
 * GLEIF records as read from any of its formats (LEI-CDF / RR-CDF XML, golden-copy JSON, API
 * JSON), and the rules that turn them into graph entries. One place decides what counts as a
 * stake, whatever the format.
 */
import { dayOf, normalizeLei, type EntityInput, type OwnershipGraphBuilder } from './graph.js';
import type { RelationshipKind } from './model.js';
import { FULL_OWNERSHIP, scalePercent } from './percent.js';

export interface RawEntity {
  lei?: string;
  name?: string;
  otherNames: { name: string; type?: string; transliterated?: boolean }[];
  legalCountry?: string;
  hqCountry?: string;
  jurisdiction?: string;
  status?: string;
  registrationStatus?: string;
  lastUpdate?: string;
}

export interface RawRelationship {
  start?: string;
  startType?: string;
  end?: string;
  endType?: string;
  type?: string;
  status?: string;
  registrationStatus?: string;
  periods: { start?: string; end?: string; type?: string }[];
  quantifiers: { method?: string; amount?: string; units?: string }[];
  lastUpdate?: string;
}

export function emptyRawEntity(): RawEntity {
  return { otherNames: [] };
}
export function emptyRawRelationship(): RawRelationship {
  return { periods: [], quantifiers: [] };
}

/** Receives GLEIF records from a parser and writes them into the graph. */
export class GleifSink {
  records = 0;
  private readonly problems = new Map<string, number>();
  constructor(
    private readonly builder: OwnershipGraphBuilder,
    private readonly warn: (message: string) => void,
  ) {}

  /** Content date of the file being read (header ContentDate, API publishDate). */
  contentDate: string | undefined;
  /** Latest record date seen, the file's date when it has no header (golden-copy JSON deltas). */
  latestRecordDate: string | undefined;

  private seen(date: string | undefined): void {
    const day = date?.slice(0, 10);
    if (day && /^\d{4}-\d{2}-\d{2}$/.test(day) && (!this.latestRecordDate || day > this.latestRecordDate))
      this.latestRecordDate = day;
  }

  private problem(what: string): void {
    this.problems.set(what, (this.problems.get(what) ?? 0) + 1);
  }

  /** Summarized problems of this file, one line per kind, so a bad file cannot flood the log. */
  flushProblems(file: string): void {
    for (const [what, count] of this.problems) this.warn(`${file}: ${count} record(s) ${what}`);
    this.problems.clear();
  }

  entity(raw: RawEntity): void {
    this.records++;
    this.seen(raw.lastUpdate);
    const lei = raw.lei ? normalizeLei(raw.lei) : undefined;
    if (!lei) {
      this.problem('skipped: LEI missing or malformed');
      return;
    }
    const input: EntityInput = { otherNames: raw.otherNames };
    if (raw.name) input.name = raw.name.trim();
    const country = countryOf(raw);
    if (country) input.country = country;
    if (raw.status) input.status = raw.status;
    this.builder.setEntity(lei, input, dayOf(raw.lastUpdate ?? this.contentDate));
  }

  relationship(raw: RawRelationship): void {
    this.records++;
    this.seen(raw.lastUpdate);
    const child = raw.start ? normalizeLei(raw.start) : undefined;
    const parent = raw.end ? normalizeLei(raw.end) : undefined;
    if (!child || !parent || notLei(raw.startType) || notLei(raw.endType)) {
      this.problem('skipped: start or end node is not a well-formed LEI');
      return;
    }
    const type = (raw.type ?? 'UNKNOWN').trim().toUpperCase();
    let amount = -1;
    for (const quantifier of raw.quantifiers) {
      if ((quantifier.units ?? '').trim().toUpperCase() !== 'PERCENTAGE' || quantifier.amount === undefined) continue;
      const scaled = scalePercent(Number(quantifier.amount.trim()));
      if (scaled === undefined || scaled > FULL_OWNERSHIP) {
        this.problem(`with a percentage quantifier out of range (e.g. "${quantifier.amount}") read as no percentage`);
        continue;
      }
      amount = scaled;
      break;
    }
    // GLEIF Level 2 points from the child (StartNode) to the parent (EndNode): the parent owns.
    this.builder.addRelationship({
      owner: parent,
      owned: child,
      amount,
      kind: kindOf(raw, type, amount, this.contentDate),
      type,
      day: dayOf(raw.lastUpdate ?? this.contentDate),
    });
  }
}

function notLei(nodeType: string | undefined): boolean {
  return nodeType !== undefined && nodeType.trim() !== '' && nodeType.trim().toUpperCase() !== 'LEI';
}

const ENDED_REGISTRATION = new Set(['RETIRED', 'ANNULLED', 'DUPLICATE', 'TRANSFERRED_OUT']);

function kindOf(raw: RawRelationship, type: string, amount: number, contentDate: string | undefined): RelationshipKind {
  if ((raw.status ?? '').toUpperCase() === 'INACTIVE') return 'inactive';
  if (ENDED_REGISTRATION.has((raw.registrationStatus ?? '').toUpperCase())) return 'inactive';
  const asOf = contentDate?.slice(0, 10);
  for (const period of raw.periods) {
    // A relationship period with an end date that has passed means the relationship ended;
    // accounting periods end every year and say nothing about that.
    if ((period.type ?? '').toUpperCase() !== 'RELATIONSHIP_PERIOD' || !period.end) continue;
    if (!asOf || period.end.slice(0, 10) <= asOf) return 'inactive';
  }
  // An ultimate parent's share is not a direct stake; counting it beside the direct chain would
  // count the same holding twice.
  if (type === 'IS_ULTIMATELY_CONSOLIDATED_BY') return 'indirect';
  // Fund management, sub-fund and feeder links are not shareholdings.
  if (type !== 'IS_DIRECTLY_CONSOLIDATED_BY') return 'not_ownership';
  return amount >= 0 ? 'stake' : 'no_percentage';
}

function countryOf(raw: RawEntity): string | undefined {
  for (const country of [raw.legalCountry, raw.hqCountry, raw.jurisdiction]) {
    const code = country?.trim().slice(0, 2).toUpperCase();
    if (code && /^[A-Z]{2}$/.test(code) && code !== 'XX') return code;
  }
  return undefined;
}
