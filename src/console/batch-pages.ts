import { Readable } from 'node:stream';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_FILE_BYTES, fileKindOf } from '../batches/index.js';
import { AppError, validationError } from '../infra/errors.js';
import type { ConsoleDeps } from './console-deps.js';
import { html, query } from './html.js';
import { csrfField, notice, page, pager, readOnly, when } from './layout.js';
import { allowed, callerContext, sessionOf } from './session.js';

/**
 * Batches (issue 16, item 3): upload a CSV, NDJSON or XLSX file (the files of POST /v1/batches),
 * follow its progress, download its results as CSV. The upload is a multipart form read by this
 * plugin's own parser, whose fields (with the form token) are checked before the handler runs; the
 * file is held in memory up to the batch file limit of the API (50 MB) and then read as the API
 * reads it, through the same batch service.
 */

const PAGE_SIZE = 20;

export async function registerUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    attachFieldsToBody: true,
    limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 10, parts: 20 },
    throwFileSizeLimit: true,
  });
}

export function batchPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const { batches } = deps.services;
  const caller = (request: FastifyRequest) => callerContext(request, deps.db, deps.clock);

  app.get('/batches', async (request, reply) => {
    const session = sessionOf(request);
    const query = request.query as Record<string, string | undefined>;
    const pageNumber = Math.max(1, Math.min(1_000_000, Number.parseInt(query.page ?? '1', 10) || 1));
    const { items, total } = await batches.listBatches({
      ctx: caller(request),
      input: { page: pageNumber, pageSize: PAGE_SIZE },
    });
    const form =
      readOnly(session, 'work') ??
      html`<form class="row" method="post" action="/console/batches" enctype="multipart/form-data">
        ${csrfField(session)}
        <label for="file"
          >File
          <input
            id="file"
            name="file"
            type="file"
            required
            accept=".csv,.ndjson,.jsonl,.xlsx,text/csv,application/x-ndjson,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        /></label>
        <button type="submit">Upload</button>
      </form>`;
    return reply.type('text/html; charset=utf-8').send(
      page(
        {
          title: 'Batches',
          session,
          section: 'batches',
          notice:
            query.done === 'uploaded'
              ? notice('ok', 'The file is queued; its rows are screened in the background.')
              : undefined,
        },
        html`${form}
          <p class="muted">
            CSV or XLSX with a header row (name required; entityType, country, birthDate, externalId optional), or
            NDJSON of POST /screen bodies; at most 50 MB. Each screened row counts toward the monthly quota.
          </p>
          <table>
            <thead>
              <tr>
                <th scope="col">Uploaded</th>
                <th scope="col">File</th>
                <th scope="col">Status</th>
                <th scope="col">Progress</th>
                <th scope="col">High / medium / low</th>
                <th scope="col">Errors</th>
                <th scope="col">Results</th>
              </tr>
            </thead>
            <tbody>
              ${items.map(
                (b) =>
                  html`<tr>
                    <td>${when(b.createdAt)}</td>
                    <td><a href="/console/batches/${encodeURIComponent(b.batchId)}">${b.fileName ?? b.batchId}</a></td>
                    <td>${b.status}</td>
                    <td>${b.done} / ${b.total}</td>
                    <td>${b.counts.high} / ${b.counts.medium} / ${b.counts.low}</td>
                    <td>${b.errors}</td>
                    <td>
                      <a href="/console/batches/${encodeURIComponent(b.batchId)}/results.csv"
                        >Download results of ${b.fileName ?? b.batchId}</a
                      >
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>
          ${items.length === 0 ? html`<p>No batches yet.</p>` : ''}
          ${pager('/console/batches', pageNumber, PAGE_SIZE, total, {})}`,
      ),
    );
  });

  app.post('/batches', async (request, reply) => {
    allowed(request, 'work');
    const part = (request.body as Record<string, unknown> | undefined)?.file as MultipartFile | undefined;
    if (!part || part.type !== 'file' || !part.filename) throw validationError('file', 'choose a file to upload');
    let buffer: Buffer;
    try {
      buffer = await part.toBuffer();
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 413)
        throw new AppError('PAYLOAD_TOO_LARGE', 'the batch file is over 50 MB');
      throw error;
    }
    const created = await batches.createBatch({
      ctx: caller(request),
      input: {
        options: { monitor: false, groupByCluster: true },
        source: {
          file: Readable.from([buffer]),
          kind: fileKindOf(part.mimetype, part.filename),
          fileName: part.filename,
        },
      },
    });
    return reply.redirect(`/console/batches/${encodeURIComponent(created.batchId)}${query({ done: 'uploaded' })}`, 303);
  });

  app.get('/batches/:id', async (request, reply) => {
    const session = sessionOf(request);
    const { id } = request.params as { id: string };
    const batch = await batches.getBatch({ ctx: caller(request), input: { id } });
    const done = (request.query as Record<string, string | undefined>).done;
    return reply.type('text/html; charset=utf-8').send(
      page(
        {
          title: `Batch ${batch.fileName ?? batch.batchId}`,
          session,
          section: 'batches',
          notice:
            done === 'uploaded'
              ? notice('ok', 'The file is queued; its rows are screened in the background.')
              : undefined,
        },
        html`<dl class="facts">
            <dt>Status</dt>
            <dd>${batch.status}</dd>
            <dt>Progress</dt>
            <dd>
              <progress max="${batch.total}" value="${batch.done}">${batch.done} of ${batch.total}</progress>
              ${batch.done} / ${batch.total} rows done
            </dd>
            <dt>Screened</dt>
            <dd>${batch.screened}</dd>
            <dt>Row errors</dt>
            <dd>${batch.errors}</dd>
            <dt>Risk</dt>
            <dd>high ${batch.counts.high}, medium ${batch.counts.medium}, low ${batch.counts.low}</dd>
            <dt>Uploaded</dt>
            <dd>${when(batch.createdAt)}</dd>
            <dt>Finished</dt>
            <dd>${when(batch.finishedAt)}</dd>
            <dt>Batch id</dt>
            <dd><code>${batch.batchId}</code></dd>
          </dl>
          <p><a href="/console/batches/${encodeURIComponent(batch.batchId)}/results.csv">Download results (CSV)</a></p>
          ${
            batch.rowErrors.length
              ? html`<h2>Row errors</h2>
                  <ul>
                    ${batch.rowErrors.map((e) => html`<li>Line ${e.line}: ${e.message}</li>`)}
                  </ul>`
              : ''
          }
          <p><a href="/console/batches">All batches</a></p>`,
      ),
    );
  });

  app.get('/batches/:id/results.csv', async (request, reply) => {
    const { id } = request.params as { id: string };
    const lines = await batches.resultsStream({ ctx: caller(request), input: { id, format: 'csv', sort: 'line' } });
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="batch-${id.replace(/[^\w-]/g, '_')}-results.csv"`)
      .send(Readable.from(lines));
  });
}
