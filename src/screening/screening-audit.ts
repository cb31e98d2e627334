import { createHash } from 'node:crypto';
import type { AuditEvent } from '../audit/index.js';
import type { Db } from '../infra/database.js';
import { parseJsonArray } from '../infra/json.js';
import { type ScreeningRow, ScreeningStore } from './screening-store.js';
import type { Lapse, Suppressions } from '../decisions/index.js';

/**
 * What the screening domain writes into the audit log (audit/audit-store.ts), and the hashes of the
 * stored rows its entries record: `sanctions audit verify` re-hashes each stored screening and
 * decision and names the entry whose row no longer matches.
 */

/**
 * SHA-256 of every stored column of a screening, in a fixed order. On the POST /screen path: the
 * columns are fed to the hash as they are (each after its length), not serialized again.
 */
export function screeningRecordHash(row: ScreeningRow): string {
  const hash = createHash('sha256');
  for (const value of [
    row.id,
    row.org_id,
    row.key_id,
    row.query,
    row.search_key,
    row.entity_type,
    row.country,
    row.birth_date,
    row.group_by_cluster,
    row.risk_score,
    row.risk_level,
    row.confidence,
    row.entity_id,
    row.entity_name,
    row.matched_sources,
    row.used_sources,
    row.list_versions,
    row.match_details,
    row.external_id,
    row.engine_version,
    row.created_at,
  ]) {
    const text = value === null ? '\u0000null' : String(value);
    hash.update(`${text.length}:`).update(text);
  }
  return hash.digest('hex');
}

/** The list versions a screening ran against, as its entry names them: `source:version`. */
function versionsOf(listVersionsJson: string): string[] {
  // Every screening against one snapshot stores the same text: read it once.
  if (listVersionsJson !== lastVersions.json) {
    lastVersions.json = listVersionsJson;
    lastVersions.ids = parseJsonArray<{ source: string; version: string }>(listVersionsJson).map(
      (v) => `${v.source}:${v.version}`,
    );
  }
  return lastVersions.ids;
}
const lastVersions: { json: string; ids: string[] } = { json: '', ids: [] };

/** The entry of a stored screening. */
export function screeningAuditEvent(row: ScreeningRow, actor: string, s: Suppressions, lapses: Lapse[]): AuditEvent {
  return {
    chain: row.org_id,
    event: 'screening.created',
    actor,
    subject: row.id,
    at: row.created_at,
    data: {
      keyId: row.key_id,
      query: row.query,
      entityType: row.entity_type,
      country: row.country,
      birthDate: row.birth_date,
      externalId: row.external_id,
      riskScore: row.risk_score,
      riskLevel: row.risk_level,
      entityId: row.entity_id,
      listVersions: versionsOf(row.list_versions),
      engineVersion: row.engine_version,
      ...(s.suppressed.size > 0
        ? { suppressed: [...s.suppressed].map(([entityId, decisionId]) => ({ entityId, decisionId })) }
        : {}),
      ...(lapses.length > 0
        ? { lapsed: lapses.map((l) => ({ entityId: l.entityId, decisionId: l.decisionId, reason: l.reason })) }
        : {}),
      recordHash: screeningRecordHash(row),
    },
  };
}

/** `audit verify`'s view of stored screenings: id -> record hash (absent when the row is gone). */
export async function screeningHashes(db: Db, ids: string[]): Promise<Map<string, string>> {
  const rows = await new ScreeningStore(db).byIds(ids);
  return new Map(rows.map((row) => [row.id, screeningRecordHash(row)]));
}
