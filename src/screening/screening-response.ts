import { parseJsonArray } from '../infra/json.js';
import { parseStoredIdentifiers, parseStoredWarnings } from './identifiers-input.js';
import type { ScreeningOutcome } from './screening-pipeline.js';
import type { ScreeningRow } from './screening-store.js';

/**
 * The screening endpoints' response bodies, each built in one place. test/screening checks what they
 * build against the route schemas (screening-schemas.ts) for real screenings.
 */

/**
 * The body of POST /screen: the envelope of api-v1.md 2.1 around the ScreeningResult of 2.2. It is
 * written as text around the matches' JSON instead of serialized from objects: the matches arrive
 * from the matching thread as JSON text, and parsing and writing them again would cost the HTTP
 * thread more than the rest of the request (README, "Benchmarks").
 */
export function screeningResultJson(outcome: ScreeningOutcome): string {
  return (
    `{"success":true,"data":{"screeningId":${JSON.stringify(outcome.screeningId)},"entityId":${JSON.stringify(outcome.entityId)},` +
    `"entityName":${JSON.stringify(outcome.entityName)},"riskScore":${outcome.riskScore},"riskLevel":${JSON.stringify(outcome.riskLevel)},` +
    `"confidence":${outcome.confidence},"matchedSources":${JSON.stringify(outcome.matchedSources)},"matchDetails":${outcome.matchesJson},` +
    `"isMonitored":${outcome.isMonitored === true},"warnings":${JSON.stringify(outcome.warnings)}}}`
  );
}

/** The full record of GET /screenings/{id} (api-v1.md 2.3), with the list versions it ran against. */
export function screeningRecord(row: ScreeningRow, isMonitored: boolean) {
  return {
    id: row.id,
    entityId: row.entity_id,
    entityName: row.entity_name,
    query: row.query,
    riskScore: row.risk_score,
    riskLevel: row.risk_level,
    confidence: row.confidence,
    matchedSources: parseJsonArray<string>(row.matched_sources),
    matchDetails: parseJsonArray<Record<string, unknown>>(row.match_details),
    usedSources: parseJsonArray<string>(row.used_sources),
    listVersions: parseJsonArray<{ source: string; version: string; publishedAt: string | null; records: number }>(
      row.list_versions,
    ),
    isMonitored,
    entityType: row.entity_type,
    country: row.country,
    birthDate: row.birth_date,
    groupByCluster: row.group_by_cluster === 1,
    identifiers: parseStoredIdentifiers(row.identifiers),
    warnings: parseStoredWarnings(row.warnings),
    externalId: row.external_id,
    engineVersion: row.engine_version,
    profile: row.profile_version === null ? null : { id: row.profile_id, version: row.profile_version },
    timestamp: row.created_at,
  };
}

/** An item of GET /screenings (api-v1.md 2.3a). */
export function screeningSummary(
  row: Pick<
    ScreeningRow,
    | 'id'
    | 'entity_id'
    | 'entity_name'
    | 'query'
    | 'risk_score'
    | 'risk_level'
    | 'matched_sources'
    | 'external_id'
    | 'created_at'
  >,
  isMonitored: boolean,
) {
  return {
    id: row.id,
    entityId: row.entity_id,
    entityName: row.entity_name,
    query: row.query,
    riskScore: row.risk_score,
    riskLevel: row.risk_level,
    matchedSources: parseJsonArray<string>(row.matched_sources),
    isMonitored,
    externalId: row.external_id,
    timestamp: row.created_at,
  };
}
