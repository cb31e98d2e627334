/**
 * The stakes CSV (docs/ownership-csv.md): one direct holding per row, for registers and
 * analysts' data that GLEIF does not carry. Header `owner_lei,owned_lei,percentage,as_of`, plus
 * the optional `owner_entity_id`, `owner_name` and `owned_name` columns.
 */
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { dayOf, normalizeLei, type OwnershipGraphBuilder } from './graph.js';
import { FULL_OWNERSHIP, parsePercent } from './percent.js';

export const REQUIRED_COLUMNS = ['owner_lei', 'owned_lei', 'percentage', 'as_of'] as const;
/** `<source_id>:<record_id>` as in api-v1.md 2.5, e.g. `us_ofac:12345`. */
const ENTITY_ID = /^[a-z][a-z0-9_]*:\S+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether the first line of a text is a stakes-CSV header. */
export function isStakesHeader(firstLine: string): boolean {
  const columns = firstLine
    .replace(/^\uFEFF/, '')
    .split(/[,;\t]/)
    .map((c) => c.trim().replace(/^"|"$/g, '').toLowerCase());
  return columns.includes('owned_lei') && columns.includes('percentage');
}

export interface CsvReadResult {
  rows: number;
  contentDate?: string;
}

export async function readStakesCsv(
  chunks: AsyncIterable<string>,
  builder: OwnershipGraphBuilder,
  warn: (message: string) => void,
): Promise<CsvReadResult> {
  const parser = Readable.from(chunks).pipe(
    parse({
      bom: true,
      trim: true,
      skip_empty_lines: true,
      info: true,
      columns: (header: string[]) => {
        const names = header.map((h) => h.trim().toLowerCase());
        const missing = REQUIRED_COLUMNS.filter((c) => !names.includes(c));
        if (missing.length > 0) throw new Error(`stakes CSV header lacks column(s): ${missing.join(', ')}`);
        return names;
      },
    }),
  );
  let rows = 0;
  let contentDate: string | undefined;
  let rejected = 0;
  const reject = (line: number, why: string): void => {
    rejected++;
    // The first rows name the problem; the count says how many more there were.
    if (rejected <= 20) warn(`line ${line}: ${why}`);
  };
  for await (const item of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
    const { record, info } = item;
    const line = info.lines;
    rows++;
    const owned = normalizeLei(record['owned_lei'] ?? '');
    if (!owned) {
      reject(line, `owned_lei "${record['owned_lei'] ?? ''}" is not an LEI`);
      continue;
    }
    const ownerLeiText = record['owner_lei'] ?? '';
    const ownerLei = ownerLeiText ? normalizeLei(ownerLeiText) : undefined;
    if (ownerLeiText && !ownerLei) {
      reject(line, `owner_lei "${ownerLeiText}" is not an LEI`);
      continue;
    }
    const entityId = record['owner_entity_id'] ?? '';
    if (entityId && !ENTITY_ID.test(entityId)) {
      reject(line, `owner_entity_id "${entityId}" is not of the form source:id`);
      continue;
    }
    const owner = ownerLei ?? entityId;
    if (!owner) {
      reject(line, 'neither owner_lei nor owner_entity_id is given');
      continue;
    }
    if (owner === owned) {
      reject(line, 'an entity cannot own itself');
      continue;
    }
    const amount = parsePercent(record['percentage'] ?? '');
    if (amount === undefined || amount > FULL_OWNERSHIP) {
      reject(line, `percentage "${record['percentage'] ?? ''}" is not a number from 0 to 100`);
      continue;
    }
    let asOf: string | undefined = record['as_of'] ?? '';
    if (asOf && !DATE.test(asOf)) {
      reject(line, `as_of "${asOf}" is not YYYY-MM-DD; row read without a date`);
      asOf = undefined;
    }
    if (asOf && (!contentDate || asOf > contentDate)) contentDate = asOf;
    if (ownerLei && entityId) builder.linkEntityId(entityId, ownerLei);
    const ownerName = record['owner_name'];
    if (ownerName) builder.nameIfUnknown(owner, ownerName);
    const ownedName = record['owned_name'];
    if (ownedName) builder.nameIfUnknown(owned, ownedName);
    builder.addRelationship({ owner, owned, amount, kind: 'stake', type: 'STAKE', day: dayOf(asOf || undefined) });
  }
  if (rejected > 20) warn(`${rejected - 20} more row(s) rejected`);
  const result: CsvReadResult = { rows };
  if (contentDate) result.contentDate = contentDate;
  return result;
}
