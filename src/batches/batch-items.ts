import { TypeCompiler } from '@sinclair/typebox/compiler';
import { AppError, fieldOfPointer } from '../infra/errors.js';
import { parseStringArray } from '../infra/json.js';
import {
  IdentifierInput,
  type IdentifierRequest,
  type IdentifierWarning,
  ScreenRequest,
  type ScreenRequestBody,
  validateIdentifiers,
  validateScreeningRequest,
} from '../screening/index.js';
import type { BatchResultRowData, BatchStatusData } from './batch-schemas.js';
import type { BatchLine, BatchRow, BatchTally, RowFailure } from './batch-store.js';

/**
 * One row checked as POST /screen checks its body: the route's schema (ScreenRequest), then the very
 * function POST /screen validates with (validateScreeningRequest). A bad row is that row's error.
 */

// The schemas ScreenRequest refers to by $ref go with it (identifiers' items).
const requestShape = TypeCompiler.Compile(ScreenRequest, [IdentifierInput]);
/** The fields of a POST /screen body: a row keeps only these (unknown fields are never stored). */
const REQUEST_FIELDS = Object.keys(ScreenRequest.properties);

export interface CheckedItem {
  /** The POST /screen body to run, with the batch's groupByCluster when the row has none. */
  body: ScreenRequestBody;
  externalId: string | null;
  error: RowFailure | null;
}

export function checkItem(item: Record<string, unknown>, groupByCluster: boolean, now: Date): CheckedItem {
  const externalId = typeof item.externalId === 'string' && item.externalId.trim() ? item.externalId.trim() : null;
  if (typeof item.__error === 'string') {
    return {
      body: { name: '' },
      externalId,
      error: { code: 'VALIDATION_ERROR', field: null, message: item.__error },
    };
  }
  const body = Object.fromEntries(
    REQUEST_FIELDS.filter((f) => item[f] !== undefined).map((f) => [f, item[f]]),
  ) as ScreenRequestBody;
  if (body.groupByCluster === undefined && groupByCluster) body.groupByCluster = true;
  const shapeError = requestShape.Errors(body).First();
  if (shapeError) {
    // The field as POST /screen's errors name it: /identifiers/0/value is identifiers[0].value.
    const field = fieldOfPointer(shapeError.path) || 'name';
    // A union of literals (entityType) says which values it takes, as POST /screen's errors do.
    const allowed = (shapeError.schema as { anyOf?: { const?: unknown }[] }).anyOf?.map((s) => s.const);
    const what =
      allowed?.length && allowed.every((v) => v !== undefined)
        ? `must be one of ${allowed.join(', ')}`
        : shapeError.message.toLowerCase();
    return { body, externalId, error: { code: 'VALIDATION_ERROR', field, message: `${field}: ${what}` } };
  }
  try {
    validateScreeningRequest(body, now);
  } catch (error) {
    if (error instanceof AppError) {
      return { body, externalId, error: { code: error.code, field: error.field ?? null, message: error.message } };
    }
    throw error;
  }
  return { body, externalId, error: null };
}

/**
 * The warnings of a screened row: its identifiers read again by the function that read them when
 * the row ran (the screening stores the same array), so the results need no column of their own.
 */
function rowWarnings(input: { identifiers?: unknown; entityType?: unknown }): IdentifierWarning[] {
  if (!Array.isArray(input.identifiers)) return [];
  const warnings: IdentifierWarning[] = [];
  const type = input.entityType === 'business' ? 'organization' : input.entityType;
  try {
    validateIdentifiers(
      input.identifiers as IdentifierRequest[],
      typeof type === 'string' ? (type as Parameters<typeof validateIdentifiers>[1]) : null,
      'identifiers',
      warnings,
    );
  } catch {
    return [];
  }
  return warnings;
}

/** The row as GET /batches/{id}/results shows it. */
export function resultRow(row: BatchLine): BatchResultRowData {
  let name: string | null = null;
  let warnings: IdentifierWarning[] = [];
  try {
    const input = JSON.parse(row.input) as { name?: unknown; identifiers?: unknown; entityType?: unknown };
    if (typeof input.name === 'string') name = input.name;
    if (row.state === 'done') warnings = rowWarnings(input);
  } catch {
    name = null;
  }
  return {
    line: row.line,
    state: row.state as BatchResultRowData['state'],
    externalId: row.external_id,
    name,
    screeningId: row.screening_id,
    riskLevel: row.risk_level as BatchResultRowData['riskLevel'],
    riskScore: row.risk_score,
    entityId: row.entity_id,
    entityName: row.entity_name,
    matchedSources: row.matched_sources ? parseStringArray(row.matched_sources) : [],
    warnings,
    error:
      row.state === 'error'
        ? {
            line: row.line,
            code: row.error_code ?? 'VALIDATION_ERROR',
            field: row.error_field,
            message: row.error_message ?? '',
          }
        : null,
  };
}

/** The batch as GET /batches/{id} and the batch.completed webhook show it. */
export function batchStatus(
  batch: BatchRow,
  tally: BatchTally,
  errors: { line: number; error_code: string | null; error_field: string | null; error_message: string | null }[],
): BatchStatusData {
  // Rows left queued under a cancelled batch will not run.
  const cancelled = tally.cancelled + (batch.status === 'cancelled' ? tally.queued : 0);
  return {
    batchId: batch.id,
    status: batch.status as BatchStatusData['status'],
    source: batch.source as BatchStatusData['source'],
    fileName: batch.file_name,
    total: batch.total,
    done: tally.done + tally.error,
    screened: tally.done,
    errors: tally.error,
    queued: batch.status === 'cancelled' ? 0 : tally.queued,
    cancelled,
    counts: { low: tally.low, medium: tally.medium, high: tally.high },
    monitor: batch.monitor === 1,
    groupByCluster: batch.group_by_cluster === 1,
    createdAt: batch.created_at,
    startedAt: batch.started_at,
    finishedAt: batch.finished_at,
    rowErrors: errors.map((e) => ({
      line: e.line,
      code: e.error_code ?? 'VALIDATION_ERROR',
      field: e.error_field,
      message: e.error_message ?? '',
    })),
  };
}

const RESULT_COLUMNS = [
  'line',
  'externalId',
  'name',
  'state',
  'screeningId',
  'riskLevel',
  'riskScore',
  'entityId',
  'entityName',
  'matchedSources',
  'errorCode',
  'errorField',
  'errorMessage',
  'warnings',
];

/** A CSV cell: quoted when it must be, and kept from being read as a formula by spreadsheets. */
function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const RESULTS_CSV_HEADER = `${RESULT_COLUMNS.join(',')}\r\n`;

export function resultCsvLine(r: BatchResultRowData): string {
  return `${[
    r.line,
    r.externalId,
    r.name,
    r.state,
    r.screeningId,
    r.riskLevel,
    r.riskScore,
    r.entityId,
    r.entityName,
    r.matchedSources.join(' '),
    r.error?.code ?? null,
    r.error?.field ?? null,
    r.error?.message ?? null,
    r.warnings.map((w) => `${w.field} ${w.code}`).join(' ') || null,
  ]
    .map(csvCell)
    .join(',')}\r\n`;
}
