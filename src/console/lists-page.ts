import type { FastifyInstance } from 'fastify';
import { type ChangeItem, latestChanges, listLabels } from '../lists/index.js';
import type { ConsoleDeps } from './console-deps.js';
import { html } from './html.js';
import { page, when } from './layout.js';
import { sessionOf } from './session.js';

const LATEST_CHANGES = 25;

/** One change in a line: what was added or removed of each field. */
function changeSummary(c: ChangeItem) {
  if (c.kind !== 'changed') return html`<span class="muted">${c.kind === 'added' ? 'newly listed' : 'delisted'}</span>`;
  return c.fields.map((field) => {
    const change = c.changes[field];
    return html`<div>
      <strong>${field}</strong
      >${change?.added.length ? html` + ${change.added.join('; ')}` : ''}${change?.removed.length ? html` − ${change.removed.join('; ')}` : ''}
    </div>`;
  });
}

/**
 * Lists: every source's version in force, its dates, freshness, record count, last sync error and
 * check schedule (last check, last change, next check), then the latest changes of the lists.
 */
export function listsPage(app: FastifyInstance, deps: ConsoleDeps): void {
  app.get('/lists', async (request, reply) => {
    const session = sessionOf(request);
    const ctx = { db: deps.db, clock: deps.clock };
    const [status, changes] = await Promise.all([
      deps.services.lists.status({ ctx }),
      latestChanges({ ctx, input: { limit: LATEST_CHANGES } }),
    ]);
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
                <th scope="col">Last check</th>
                <th scope="col">Last change</th>
                <th scope="col">Next check</th>
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
                    <td>
                      ${s.lastCheckStatus ? html`${s.lastCheckStatus.replace('_', ' ')} ${when(s.lastCheckAt)}` : when(null)}${s.checkFailures > 0 ? html`<br /><strong>${s.checkFailures} failed in a row</strong>` : ''}
                    </td>
                    <td>${when(s.lastChangeAt)}</td>
                    <td>${s.nextCheckAt ? when(s.nextCheckAt) : html`<span class="muted">not polled</span>`}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
          <h2 id="latest-changes">Latest changes</h2>
          ${
            changes.length === 0
              ? html`<p class="muted">
                  No changes yet: a source's first version has none; each later one is compared with the version it
                  replaced.
                </p>`
              : html`<table>
                  <thead>
                    <tr>
                      <th scope="col">Put in force</th>
                      <th scope="col">Source</th>
                      <th scope="col">Entity</th>
                      <th scope="col">Change</th>
                      <th scope="col">Major</th>
                      <th scope="col">What changed</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${changes.map(
                      (c) =>
                        html`<tr>
                          <td>${when(c.activatedAt)}</td>
                          <td><code>${c.source}</code></td>
                          <td>${c.name}<br /><code>${c.entityId}</code></td>
                          <td>${c.kind}</td>
                          <td>${c.major ? html`<strong>major</strong>` : 'minor'}</td>
                          <td>${changeSummary(c)}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>`
          }`,
      ),
    );
  });
}
