/**
 * Monitors for the rescreening benchmarks: a seeded mix of listed names (2%, so alerts and their
 * webhook deliveries are written too) and invented names made of syllables (the innocent rest).
 */
import type { MonitorsTable } from '../src/infra/db-schema.js';
import type { Db } from '../src/infra/database.js';
import { newId } from '../src/infra/ids.js';
import { searchKey } from '../src/screening/search-key.js';
import { rng } from './query-mix.js';

const SYLLABLES = 'an ber cha dor el fi gar hol in jo ka lin mar nes o pet qui ros sen tal u vic wen xa yor zu'.split(
  ' ',
);

/** An invented name of two or three words of syllables, numbered so that every one is distinct. */
export function inventedName(rand: () => number, number: number): string {
  const syllable = () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
  const word = () => Array.from({ length: 2 + Math.floor(rand() * 2) }, syllable).join('');
  return `${Array.from({ length: 2 + Math.floor(rand() * 2) }, word).join(' ')} ${number}`;
}

/** A monitor of `name` for `orgId`, never screened against the lists in force; `number` keeps it unique. */
export function monitorRow(orgId: string, number: number, name: string, now: Date): MonitorsTable {
  const at = now.toISOString();
  return {
    id: newId('mon', now),
    org_id: orgId,
    screening_id: `scr_bench${number}`,
    search_key: `${searchKey({ name })}#${number}`, // unique per monitor: a listed name is drawn many times
    query: name,
    entity_type: null,
    country: null,
    birth_date: null,
    entity_name: null,
    risk_threshold: 55,
    is_active: 1,
    last_risk_score: 0,
    last_risk_level: 'low',
    last_sources: '[]',
    last_entity_id: null,
    last_list_versions: '[]',
    last_screened_at: at,
    rescreen_generation: null,
    external_id: null,
    created_at: at,
    removed_at: null,
    identifiers: null,
  };
}

/** The monitor rows: `total` of them for `orgId`, the same names for the same seed. */
export function monitorRows(options: { orgId: string; total: number; listed: string[]; now: Date; seed?: number }) {
  const rand = rng(options.seed ?? 11);
  const rows: MonitorsTable[] = [];
  for (let i = 0; i < options.total; i++) {
    const name = rand() < 0.02 ? options.listed[Math.floor(rand() * options.listed.length)]! : inventedName(rand, i);
    rows.push(monitorRow(options.orgId, i, name, options.now));
  }
  return rows;
}

/** Inserts `rows` in transactions of 2,000 (statements of 100 rows: SQLite's bound-variable limit). */
export async function insertMonitors(db: Db, rows: MonitorsTable[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 2000) {
    const chunk = rows.slice(i, i + 2000);
    await db.transaction().execute(async (trx) => {
      for (let j = 0; j < chunk.length; j += 100)
        await trx
          .insertInto('monitors')
          .values(chunk.slice(j, j + 100))
          .execute();
    });
  }
}
