import type { Readable } from 'node:stream';
import type { Call } from '../infra/context.js';
import { AppError, notFound, validationError } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import { type CallerContext, usedThisMonth } from '../tenants/index.js';
import { type FileKind, type ReadRow, readBatchFile } from './batch-readers.js';
import { RESULTS_CSV_HEADER, batchStatus, checkItem, resultCsvLine, resultRow } from './batch-items.js';
import type { BatchResultRowData } from './batch-schemas.js';
import { type BatchLine, BatchStore } from './batch-store.js';

/** POST/GET/DELETE /batches and the results (issue 14). The rows run in the background (batch-runner.ts). */

export interface BatchOptions {
  monitor: boolean;
  groupByCluster: boolean;
}

export interface CreateBatchInput {
  options: BatchOptions;
  /** JSON items, or a file streamed. */
  source: { items: Record<string, unknown>[] } | { file: Readable; kind: FileKind; fileName: string | null };
}

export interface BatchDeps {
  /** Called when a batch is queued: the runner starts on it at once. */
  onQueued?: () => void;
}

/** Rows written to the database in one statement as the upload streams. */
const CHUNK_ROWS = 500;
/** Row errors listed in GET /batches/{id}; every one is in the results. */
const STATUS_ERRORS = 100;

function quotaRefusal(ctx: CallerContext, fit: number, used: number): AppError {
  const { caller } = ctx;
  return new AppError(
    'TIER_LIMIT_EXCEEDED',
    `the batch has more screenable rows than the quota left: ${fit} row${fit === 1 ? '' : 's'} fit (${used} of the ${caller.tier} tier's ${caller.quota} screenings used this month); nothing was queued`,
  );
}

async function* itemRows(items: Record<string, unknown>[]): AsyncGenerator<ReadRow> {
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    yield {
      line: i + 1,
      item: item && typeof item === 'object' && !Array.isArray(item) ? item : { __error: 'the item is not an object' },
    };
  }
}

export type BatchService = ReturnType<typeof batchService>;

export function batchService(deps: BatchDeps = {}) {
  return {
    /**
     * Reads every row, checks it as POST /screen would, and writes the rows in chunks as they arrive;
     * the batch is queued (202) once all are stored. A batch with more screenable rows than the quota
     * left, a file that is not a batch file, or one with no name column leaves nothing behind.
     */
    async createBatch({ ctx, input }: Call<CreateBatchInput, CallerContext>) {
      const { db, clock, caller } = ctx;
      const now = clock.now();
      const store = new BatchStore(db);
      const used = caller.quota === null ? 0 : await usedThisMonth(db, caller.orgId, now);
      const left = caller.quota === null ? Infinity : Math.max(0, caller.quota - used);
      const id = newId('bat', now);
      const fromFile = 'file' in input.source;
      await store.insertBatch({
        id,
        org_id: caller.orgId,
        caller: JSON.stringify({ keyId: caller.keyId, userId: caller.userId }),
        status: 'receiving',
        source: 'file' in input.source ? input.source.kind : 'json',
        file_name: 'file' in input.source ? input.source.fileName : null,
        total: 0,
        monitor: input.options.monitor ? 1 : 0,
        group_by_cluster: input.options.groupByCluster ? 1 : 0,
        created_at: now.toISOString(),
        started_at: null,
        finished_at: null,
      });
      let total = 0;
      try {
        const rows =
          'file' in input.source ? readBatchFile(input.source.file, input.source.kind) : itemRows(input.source.items);
        let chunk: BatchLine[] = [];
        let screenable = 0;
        for await (const row of rows) {
          const checked = checkItem(row.item, input.options.groupByCluster, now);
          total++;
          if (!checked.error && ++screenable > left) throw quotaRefusal(ctx, left, used);
          chunk.push({
            batch_id: id,
            line: row.line,
            state: checked.error ? 'error' : 'queued',
            input: JSON.stringify(checked.body),
            external_id: checked.externalId,
            screening_id: null,
            risk_level: null,
            risk_score: null,
            entity_id: null,
            entity_name: null,
            matched_sources: null,
            error_code: checked.error?.code ?? null,
            error_field: checked.error?.field ?? null,
            error_message: checked.error?.message ?? null,
            claimed_until: null,
            claimed_by: null,
          });
          if (chunk.length >= CHUNK_ROWS) {
            await store.insertLines(chunk);
            chunk = [];
          }
        }
        await store.insertLines(chunk);
        if (total === 0) throw validationError(fromFile ? 'file' : 'items', 'has no rows to screen');
        await store.setStatus(id, ['receiving'], { status: 'queued', total });
      } catch (error) {
        await store.deleteBatch(id).catch(() => undefined);
        if (error instanceof AppError) throw error;
        // A multipart file over its size limit (the form reader's own error).
        if ((error as { statusCode?: number }).statusCode === 413)
          throw new AppError('PAYLOAD_TOO_LARGE', 'the batch file is over 50 MB');
        // A reader's own failure (malformed CSV, a broken workbook): the file is at fault.
        throw validationError('file', (error as Error).message);
      }
      deps.onQueued?.();
      return { batchId: id, status: 'queued' as const, total };
    },

    async getBatch({ ctx, input }: Call<{ id: string }, CallerContext>) {
      const store = new BatchStore(ctx.db);
      const batch = await store.byId(ctx.caller.orgId, input.id);
      if (!batch) throw notFound(`batch "${input.id}"`);
      return batchStatus(batch, await store.tally(batch.id), await store.errors(batch.id, STATUS_ERRORS));
    },

    async listBatches({ ctx, input }: Call<{ page: number; pageSize: number }, CallerContext>) {
      const store = new BatchStore(ctx.db);
      const { rows, total } = await store.page(ctx.caller.orgId, input);
      const items = [];
      for (const batch of rows) items.push(batchStatus(batch, await store.tally(batch.id), []));
      return { items, total };
    },

    /** One page of results, as JSON. */
    async resultsPage({
      ctx,
      input,
    }: Call<{ id: string; page: number; pageSize: number; sort: 'line' | 'risk' }, CallerContext>) {
      const store = new BatchStore(ctx.db);
      const batch = await store.byId(ctx.caller.orgId, input.id);
      if (!batch) throw notFound(`batch "${input.id}"`);
      const rows = await store.results(batch.id, {
        sort: input.sort,
        offset: (input.page - 1) * input.pageSize,
        limit: input.pageSize,
      });
      return { items: rows.map((r) => shown(batch.status, resultRow(r))), total: batch.total };
    },

    /** Every row, as CSV or NDJSON text, read from the database a page at a time while it is sent. */
    async resultsStream({
      ctx,
      input,
    }: Call<{ id: string; format: 'csv' | 'ndjson'; sort: 'line' | 'risk' }, CallerContext>) {
      const store = new BatchStore(ctx.db);
      const batch = await store.byId(ctx.caller.orgId, input.id);
      if (!batch) throw notFound(`batch "${input.id}"`);
      const page = 1000;
      async function* lines(): AsyncGenerator<string> {
        if (input.format === 'csv') yield RESULTS_CSV_HEADER;
        let afterLine = 0;
        for (let offset = 0; ; offset += page) {
          const rows = await store.results(batch!.id, {
            sort: input.sort,
            ...(input.sort === 'line' ? { afterLine } : { offset }),
            limit: page,
          });
          let text = '';
          for (const row of rows) {
            const result = shown(batch!.status, resultRow(row));
            text += input.format === 'csv' ? resultCsvLine(result) : `${JSON.stringify(result)}\n`;
          }
          if (text) yield text;
          if (rows.length < page) return;
          afterLine = rows.at(-1)!.line;
        }
      }
      return lines();
    },

    /** Cancels what has not run: rows already screened stay, rows in flight finish. */
    async cancelBatch({ ctx, input }: Call<{ id: string }, CallerContext>) {
      const store = new BatchStore(ctx.db);
      const batch = await store.byId(ctx.caller.orgId, input.id);
      if (!batch) throw notFound(`batch "${input.id}"`);
      const now = ctx.clock.now().toISOString();
      if (!['queued', 'running'].includes(batch.status)) {
        throw new AppError('CONFLICT', `the batch is ${batch.status}: only a queued or running batch can be cancelled`);
      }
      if (await store.setStatus(batch.id, ['queued', 'running'], { status: 'cancelled', finished_at: now })) {
        await store.cancelQueued(batch.id, now);
      }
      return batchStatus((await store.byId(ctx.caller.orgId, batch.id))!, await store.tally(batch.id), []);
    },
  };
}

/** A row left queued under a cancelled batch will not run. */
function shown(status: string, row: BatchResultRowData): BatchResultRowData {
  return status === 'cancelled' && row.state === 'queued' ? { ...row, state: 'cancelled' } : row;
}
