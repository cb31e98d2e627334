import { sha256Hex } from '../audit/index.js';
import type { Db } from '../infra/database.js';
import { type DecisionRow, DecisionsStore } from './decisions-store.js';

/**
 * The hash of a stored decision its `decision.created` audit entry records: `sanctions audit verify`
 * re-hashes each stored decision and names the entry whose row no longer matches.
 */

/** SHA-256 of what a decision says (not its later approval or lapse, which have entries of their own). */
export function decisionRecordHash(row: DecisionRow): string {
  return sha256Hex(
    JSON.stringify([
      row.id,
      row.org_id,
      row.screening_id,
      row.alert_id,
      row.entity_id,
      row.entity_name,
      row.match_score,
      row.match_level,
      row.decision,
      row.reason,
      row.note,
      row.user_id,
      row.key_id,
      row.customer_key,
      row.customer_data,
      row.external_id,
      row.fingerprint,
      row.list_version,
      row.created_at,
    ]),
  );
}

/** `audit verify`'s view of stored decisions. */
export async function decisionHashes(db: Db, ids: string[]): Promise<Map<string, string>> {
  const rows = await new DecisionsStore(db).byIds(ids);
  return new Map(rows.map((row) => [row.id, decisionRecordHash(row)]));
}
