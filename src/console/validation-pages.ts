import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ValidationRunView } from '../validation/index.js';
import type { ConsoleDeps } from './console-deps.js';
import { type Html, html, query } from './html.js';
import { csrfField, notice, page, pager, readOnly, when } from './layout.js';
import { allowed, callerContext, sessionOf } from './session.js';

/**
 * Validation (issue 31): start a run (admins), follow its progress, read past runs' summaries and
 * download their signed reports; the same service as POST/GET /v1/validation-runs.
 */

const PAGE_SIZE = 20;

function progress(run: ValidationRunView): Html {
  if (run.status === 'queued') return html`<span class="muted">waiting</span>`;
  if (run.status !== 'running') return html`${run.status}`;
  const { phase, done, total } = run.progress;
  return html`<progress max="${total}" value="${done}">${done} of ${total}</progress> ${phase ?? ''} ${done} / ${total}`;
}

function verdict(run: ValidationRunView): Html {
  if (run.passed === null) return html`<span class="muted">-</span>`;
  return run.passed ? html`every threshold met` : html`<strong>thresholds NOT met</strong>`;
}

function downloads(run: ValidationRunView): Html {
  if (run.status !== 'completed') return html`<span class="muted">not ready</span>`;
  const base = `/console/validation/${encodeURIComponent(run.id)}`;
  return html`<a href="${base}/report.html">report.html</a> · <a href="${base}/report.json">report.json</a>`;
}

export function validationPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const { validation } = deps.services;
  const caller = (request: FastifyRequest) => callerContext(request, deps.db, deps.clock);

  app.get('/validation', async (request, reply) => {
    const session = sessionOf(request);
    const params = request.query as Record<string, string | undefined>;
    const pageNumber = Math.max(1, Math.min(1_000_000, Number.parseInt(params.page ?? '1', 10) || 1));
    const { items, total } = await validation.listRuns({
      ctx: caller(request),
      input: { page: pageNumber, pageSize: PAGE_SIZE, orgId: session.orgId },
    });
    const form =
      readOnly(session, 'administer') ??
      html`<form class="row" method="post" action="/console/validation">
        ${csrfField(session)}
        <label><input type="checkbox" name="quick" value="true" /> Quick run (samples, about a minute)</label>
        <button type="submit">Start a validation run</button>
      </form>`;
    return reply.type('text/html; charset=utf-8').send(
      page(
        { title: 'Validation', session, section: 'validation' },
        html`<p>
            A validation run screens the lists in force against themselves and against people who are not listed, with
            the engine this deployment screens with, and writes a signed report for examiners: self-screen recall,
            recall under misspellings and transliteration, false alerts per script, identifiers, latency.
          </p>
          ${form}
          <table>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Kind</th>
                <th scope="col">Status</th>
                <th scope="col">Progress</th>
                <th scope="col">Result</th>
                <th scope="col">Report</th>
              </tr>
            </thead>
            <tbody>
              ${items.map(
                (r) =>
                  html`<tr>
                    <td><a href="/console/validation/${encodeURIComponent(r.id)}">${when(r.createdAt)}</a></td>
                    <td>${r.kind}</td>
                    <td>${r.status}</td>
                    <td>${progress(r)}</td>
                    <td>${verdict(r)}</td>
                    <td>${downloads(r)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
          ${items.length === 0 ? html`<p>No validation runs yet.</p>` : ''}
          ${pager('/console/validation', pageNumber, PAGE_SIZE, total, {})}`,
      ),
    );
  });

  app.post('/validation', async (request, reply) => {
    allowed(request, 'administer');
    const body = (request.body ?? {}) as Record<string, string | undefined>;
    const run = await validation.startRun({ ctx: caller(request), input: { quick: body.quick === 'true' } });
    return reply.redirect(`/console/validation/${encodeURIComponent(run.id)}${query({ done: 'started' })}`, 303);
  });

  app.get('/validation/:id', async (request, reply) => {
    const session = sessionOf(request);
    const { id } = request.params as { id: string };
    const run = await validation.getRun({ ctx: caller(request), input: { id, orgId: session.orgId } });
    const started = (request.query as Record<string, string | undefined>).done === 'started';
    const unfinished = run.status === 'queued' || run.status === 'running';
    return reply.type('text/html; charset=utf-8').send(
      page(
        {
          title: `Validation run ${run.id}`,
          session,
          section: 'validation',
          notice: started
            ? notice('ok', 'The run is queued; it runs in the background. Reload this page to follow it.')
            : undefined,
        },
        html`<dl class="facts">
            <dt>Status</dt>
            <dd>${run.status}${unfinished ? html` (reload to follow)` : ''}</dd>
            <dt>Progress</dt>
            <dd>${progress(run)}</dd>
            <dt>Kind</dt>
            <dd>${run.kind}, seed ${run.seed}</dd>
            <dt>Queued</dt>
            <dd>${when(run.createdAt)}</dd>
            <dt>Finished</dt>
            <dd>${when(run.finishedAt)}</dd>
            <dt>Result</dt>
            <dd>${verdict(run)}</dd>
            <dt>Report</dt>
            <dd>${downloads(run)}</dd>
          </dl>
          ${run.error ? notice('error', run.error) : ''}
          ${
            run.summary
              ? html`<h2>Summary</h2>
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">Measure</th>
                        <th scope="col">Result</th>
                        <th scope="col">Threshold</th>
                        <th scope="col">Met</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${run.summary.map(
                        (s) =>
                          html`<tr>
                            <td>${s.label}</td>
                            <td>${s.value}${s.unit === '%' ? '%' : s.unit === 'ms' ? ' ms' : ''}</td>
                            <td>${s.bound === 'min' ? '≥' : '≤'} ${s.threshold}</td>
                            <td>${s.met ? 'met' : html`<strong>NOT met</strong>`}</td>
                          </tr>`,
                      )}
                    </tbody>
                  </table>`
              : ''
          }
          <p><a href="/console/validation">All validation runs</a></p>`,
      ),
    );
  });

  app.get('/validation/:id/:file', async (request, reply) => {
    const session = sessionOf(request);
    const { id, file } = request.params as { id: string; file: string };
    if (file !== 'report.json' && file !== 'report.html') return reply.callNotFound();
    const format = file === 'report.json' ? 'json' : 'html';
    const text = await validation.getReport({ ctx: caller(request), input: { id, orgId: session.orgId, format } });
    return reply
      .type(format === 'json' ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${id.replace(/[^\w-]/g, '_')}-${file}"`)
      .send(text);
  });
}
