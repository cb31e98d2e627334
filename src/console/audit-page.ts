import type { FastifyInstance } from 'fastify';
import { AppError } from '../infra/errors.js';
import type { ConsoleDeps } from './console-deps.js';
import { type Html, html } from './html.js';
import { notice, page } from './layout.js';
import { sessionOf } from './session.js';

/**
 * Audit (issue 16, item 3): verify the organization's hash chain (the check of `sanctions audit
 * verify --org`), and export its entries between two dates as CSV or JSON lines (`sanctions audit
 * export`). Everyone signed in may verify; auditors and admins may export.
 */

const EXPORTERS = ['auditor', 'admin'];

export function auditPage(app: FastifyInstance, deps: ConsoleDeps): void {
  const { audit } = deps.services;
  const ctx = () => ({ db: deps.db, clock: deps.clock });

  app.get('/audit', async (request, reply) => {
    const session = sessionOf(request);
    const query = request.query as Record<string, string | undefined>;
    let result: Html | undefined;
    if (query.verify !== undefined) {
      const report = await audit.verify({ ctx: ctx(), input: { org: session.orgSlug } });
      const broken = report.broken[0];
      result = report.ok
        ? notice('ok', `The chain is intact: ${report.entries} entries checked.`)
        : notice(
            'error',
            `The chain is broken at entry ${broken?.seq ?? '?'}${broken?.event ? ` (${broken.event})` : ''}: ${broken?.problem ?? ''}. ${report.entries} entries were checked before it.`,
          );
    }
    const today = deps.clock.now().toISOString().slice(0, 10);
    const monthAgo = new Date(deps.clock.now().getTime() - 30 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const exportForm = EXPORTERS.includes(session.role)
      ? html`<form class="row" method="get" action="/console/audit/export">
          <label for="from">From <input id="from" name="from" type="date" required value="${monthAgo}" /></label>
          <label for="to">To <input id="to" name="to" type="date" required value="${today}" /></label>
          <label for="format"
            >Format
            <select id="format" name="format">
              <option value="csv">CSV</option>
              <option value="jsonl">JSON lines</option>
            </select></label
          >
          <button type="submit">Export</button>
        </form>`
      : html`<p class="muted">Your role (${session.role}) may not export the audit log; auditors and admins may.</p>`;
    return reply.type('text/html; charset=utf-8').send(
      page(
        { title: 'Audit log', session, section: 'audit', notice: result },
        html`<p>
            Every screening, decision, approval, resolution and list activation is an entry of a hash chain: each
            entry's hash covers the one before it, and entries that record a screening or decision also hold the hash of
            the stored row.
          </p>
          <h2>Verify</h2>
          <form method="get" action="/console/audit">
            <input type="hidden" name="verify" value="1" />
            <button type="submit">Verify chain</button>
          </form>
          <h2>Export</h2>
          ${exportForm}`,
      ),
    );
  });

  app.get('/audit/export', async (request, reply) => {
    const session = sessionOf(request);
    if (!EXPORTERS.includes(session.role))
      throw new AppError('FORBIDDEN', `your role (${session.role}) may not export the audit log`);
    const query = request.query as Record<string, string | undefined>;
    const result = await audit.export({
      ctx: ctx(),
      input: { org: session.orgSlug, from: query.from ?? '', to: query.to ?? '', format: query.format ?? 'csv' },
    });
    const name = `audit-${session.orgSlug}-${(query.from ?? '').slice(0, 10)}-${(query.to ?? '').slice(0, 10)}.${result.format}`;
    return reply
      .type(result.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`)
      .send(result.text);
  });
}
