import type { FastifyInstance } from 'fastify';
import { listLabels } from '../lists/labels.js';
import type { ConsoleDeps } from './console-routes.js';
import { html } from './html.js';
import { page, when } from './layout.js';
import { sessionOf } from './session.js';

/** Lists: every source's version in force, its dates, freshness, record count and last sync error. */
export function listsPage(app: FastifyInstance, deps: ConsoleDeps): void {
  app.get('/lists', async (request, reply) => {
    const session = sessionOf(request);
    const status = await deps.services.lists.status({ ctx: { db: deps.db, clock: deps.clock } });
    const staleAfterHours = Math.round(deps.config.lists.staleAfterMs / 3_600_000);
    return reply.type('text/html; charset=utf-8').send(
      page(
        { title: 'Lists', session, section: 'lists' },
        html`<p class="muted">
            A source is stale when it has had no good sync for ${staleAfterHours} hours or its last sync was rejected;
            the version in force stays in use until a good one replaces it.
          </p>
          <table>
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col">Version in force</th>
                <th scope="col">Published</th>
                <th scope="col">Fetched</th>
                <th scope="col">Records</th>
                <th scope="col">Fresh</th>
                <th scope="col">Last sync</th>
              </tr>
            </thead>
            <tbody>
              ${status.map(
                (s) =>
                  html`<tr>
                    <td>${listLabels([s.source])[0]}<br /><code>${s.source}</code></td>
                    <td>
                      ${s.version ? html`<code>${s.version}</code>${s.format ? html`<br /><span class="muted">${s.format}</span>` : ''}` : html`<span class="muted">none</span>`}
                    </td>
                    <td>${s.publishedAt ?? html`<span class="muted">unknown</span>`}</td>
                    <td>${when(s.fetchedAt)}</td>
                    <td>${s.records.toLocaleString('en-GB')}</td>
                    <td>${s.stale ? html`<strong>STALE</strong>` : 'fresh'}</td>
                    <td>
                      ${s.lastAttemptStatus ? html`${s.lastAttemptStatus} ${when(s.lastAttemptAt)}` : when(null)}${s.lastError ? html`<br /><strong>Error:</strong> ${s.lastError}` : ''}
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`,
      ),
    );
  });
}
