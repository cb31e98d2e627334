import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConsoleDeps } from './console-deps.js';
import { type Html, html, query } from './html.js';
import { csrfField, notice, page, pager, readOnly, riskLevel, when } from './layout.js';
import { DECIDED_NOTICES, approvalsFor, approvalsTable, decisionForm, decisionState } from './decision-pages.js';
import { allowed, callerContext, field, sessionOf } from './session.js';

/** Alerts (open first, oldest first; resolve with a note) and Monitors. */

const OPEN_LIMIT = 500;
const RESOLVED_SHOWN = 50;
const MONITORS_PAGE_SIZE = 20;

const REASONS: Record<string, string> = {
  risk_level_changed: 'risk level changed',
  threshold_crossed: 'threshold crossed',
  source_added: 'now on another list',
};

type AlertItem = Awaited<ReturnType<ConsoleDeps['services']['alerts']['listAlerts']>>[number];

/** The alert's top match with its latest decision and, when the role may work, the decision buttons. */
function alertMatch(alert: AlertItem, decide: Html | undefined): Html {
  if (!alert.entityId) return html``;
  const decision = alert.decisions.find((d) => d.entityId === alert.entityId);
  return html`${decisionState({
    entity: { id: alert.entityId, name: alert.entityName ?? alert.entityId },
    ...(decision ? { decision } : {}),
  })}${decide}`;
}

function alertRow(alert: AlertItem, resolveForm: Html | undefined, decide?: Html): Html {
  return html`<tr>
    <td>${when(alert.timestamp)}</td>
    <td>
      ${alert.query ?? ''}${alert.entityName ? html`<br /><span class="muted">${alert.entityName}</span>` : ''}
      ${alertMatch(alert, decide)}
    </td>
    <td>
      ${riskLevel(alert.oldRiskLevel, alert.oldRiskScore)}<br /><span class="muted"
        >${alert.oldLists.join(', ') || 'no list'}</span
      >
    </td>
    <td>
      ${riskLevel(alert.newRiskLevel, alert.newRiskScore)}<br /><span class="muted"
        >${alert.newLists.join(', ') || 'no list'}</span
      >
    </td>
    <td>${alert.reasons.map((r) => REASONS[r] ?? r).join('; ')}</td>
    <td>
      ${
        alert.resolvedAt
          ? html`Resolved ${when(alert.resolvedAt)} by
            ${alert.resolvedBy ?? ''}${alert.note ? html`<br />Note: ${alert.note}` : ''}`
          : (resolveForm ?? html`Open`)
      }
    </td>
  </tr>`;
}

export function monitoringPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const { alerts, monitors } = deps.services;
  const ctx = () => ({ db: deps.db, clock: deps.clock });
  const caller = (request: FastifyRequest) => callerContext(request, deps.db, deps.clock);

  app.get('/alerts', async (request, reply) => {
    const session = sessionOf(request);
    const [open, recent, approvals] = await Promise.all([
      alerts.listAlerts({ ctx: ctx(), input: { org: session.orgSlug, unresolved: true, limit: OPEN_LIMIT } }),
      alerts.listAlerts({ ctx: ctx(), input: { org: session.orgSlug, limit: RESOLVED_SHOWN + OPEN_LIMIT } }),
      approvalsFor(deps, request),
    ]);
    // Open first, oldest first: the longest-waiting alert is worked first.
    const openOldestFirst = [...open].sort(
      (a, b) => a.timestamp.localeCompare(b.timestamp) || a.id.localeCompare(b.id),
    );
    const resolved = recent.filter((a) => a.resolvedAt !== null).slice(0, RESOLVED_SHOWN);
    const mayResolve = readOnly(session, 'work') === undefined;
    const resolveForm = (alert: AlertItem) =>
      mayResolve
        ? html`<form class="stack" method="post" action="/console/alerts/${encodeURIComponent(alert.id)}/resolve">
            ${csrfField(session)}
            <label for="note-${alert.id}"
              >Note <textarea id="note-${alert.id}" name="note" rows="2" maxlength="2000"></textarea>
            </label>
            <div><button type="submit">Resolve</button></div>
          </form>`
        : undefined;
    const head = html`<thead>
      <tr>
        <th scope="col">Raised</th>
        <th scope="col">Search</th>
        <th scope="col">Old risk</th>
        <th scope="col">New risk</th>
        <th scope="col">Why</th>
        <th scope="col">Status</th>
      </tr>
    </thead>`;
    const done = (request.query as Record<string, string>).done;
    return reply.type('text/html; charset=utf-8').send(
      page(
        {
          title: 'Alerts',
          session,
          section: 'alerts',
          notice:
            done === 'resolved'
              ? notice('ok', 'The alert is resolved.')
              : done && DECIDED_NOTICES[done]
                ? notice('ok', DECIDED_NOTICES[done])
                : undefined,
        },
        html`<h2>Approvals waiting for me (${approvals.length})</h2>
          ${approvalsTable(session, approvals)}
          <h2>Open (${openOldestFirst.length})</h2>
          ${
            openOldestFirst.length
              ? html`<table>
                  ${head}
                  <tbody>
                    ${openOldestFirst.map((a) =>
                      alertRow(
                        a,
                        resolveForm(a),
                        a.entityId
                          ? decisionForm(
                              session,
                              `/console/alerts/${encodeURIComponent(a.id)}/decisions`,
                              a.entityId,
                              a.id,
                            )
                          : undefined,
                      ),
                    )}
                  </tbody>
                </table>`
              : html`<p>No open alerts.</p>`
          }
          ${readOnly(session, 'work')}
          <h2>Recently resolved</h2>
          ${
            resolved.length
              ? html`<table>
                  ${head}
                  <tbody>
                    ${resolved.map((a) => alertRow(a, undefined))}
                  </tbody>
                </table>`
              : html`<p>None yet.</p>`
          }`,
      ),
    );
  });

  app.post('/alerts/:id/resolve', async (request, reply) => {
    const session = allowed(request, 'work');
    const { id } = request.params as { id: string };
    const note = field(request, 'note');
    await alerts.resolveAlert({
      ctx: ctx(),
      input: { id, user: session.email, orgId: session.orgId, ...(note.trim() ? { note } : {}) },
    });
    return reply.redirect(`/console/alerts${query({ done: 'resolved' })}`, 303);
  });

  app.get('/monitors', async (request, reply) => {
    const session = sessionOf(request);
    const pageNumber = Math.max(1, Number.parseInt((request.query as Record<string, string>).page ?? '1', 10) || 1);
    const { items, total } = await monitors.listMonitors({
      ctx: caller(request),
      input: { page: pageNumber, pageSize: MONITORS_PAGE_SIZE },
    });
    const mayChange = readOnly(session, 'work') === undefined;
    return reply.type('text/html; charset=utf-8').send(
      page(
        { title: 'Monitors', session, section: 'monitors' },
        html`<p class="muted">
            Monitored searches are rescreened after every list update and at least daily. Place a search under
            monitoring from its screening's page.
          </p>
          <table>
            <thead>
              <tr>
                <th scope="col">Search</th>
                <th scope="col">Last risk</th>
                <th scope="col">Threshold</th>
                <th scope="col">Lists</th>
                <th scope="col">Last screened</th>
                <th scope="col">Active</th>
                <th scope="col"></th>
              </tr>
            </thead>
            <tbody>
              ${items.map(
                (m) =>
                  html`<tr>
                    <td>
                      <a href="/console/screenings/${encodeURIComponent(m.screeningId)}">${m.query}</a
                      >${m.entityName ? html`<br /><span class="muted">${m.entityName}</span>` : ''}
                    </td>
                    <td>${riskLevel(m.lastRiskLevel, m.lastRiskScore)}</td>
                    <td>${m.riskThreshold}</td>
                    <td>${m.lastSources.join(', ')}</td>
                    <td>${when(m.lastScreenedAt)}</td>
                    <td>${m.isActive ? 'yes' : 'no (tier)'}</td>
                    <td>
                      ${mayChange ? html`<form class="inline" method="post" action="/console/monitors/${encodeURIComponent(m.id)}/remove">${csrfField(session)}<button type="submit" class="danger">Stop monitoring</button></form>` : ''}
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>
          ${items.length === 0 ? html`<p>Nothing is monitored yet.</p>` : ''}
          ${pager('/console/monitors', pageNumber, MONITORS_PAGE_SIZE, total, {})}`,
      ),
    );
  });

  app.post('/monitors/:id/remove', async (request, reply) => {
    allowed(request, 'work');
    const { id } = request.params as { id: string };
    await monitors.removeMonitor({ ctx: caller(request), input: { id } });
    return reply.redirect('/console/monitors', 303);
  });
}
