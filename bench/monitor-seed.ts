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

/** The monitor rows: `total` of them for `orgId`, the same for the same seed. */
export function monitorRows(options: { orgId: string; total: number; listed: string[]; now: Date; seed?: number }) {
  const rand = rng(options.seed ?? 11);
  const pick = <T>(items: T[]) => items[Math.floor(rand() * items.length)] as T;
  const invented = (i: number) =>
    Array.from({ length: 2 + Math.floor(rand() * 2) }, () =>
      Array.from({ length: 2 + Math.floor(rand() * 2) }, () => pick(SYLLABLES)).join(''),
    ).join(' ') + ` ${i}`;
  const at = options.now.toISOString();
  const rows: MonitorsTable[] = [];
  for (let i = 0; i < options.total; i++) {
    const name = rand() < 0.02 ? pick(options.listed) : invented(i);
    rows.push({
      id: newId('mon', options.now),
      org_id: options.orgId,
      screening_id: `scr_bench${i}`,
      search_key: `${searchKey({ name })}#${i}`, // unique per monitor: a listed name is drawn many times
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
    });
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
