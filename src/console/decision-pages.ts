import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionView } from '../accounts/index.js';
import { type DecisionRequestBody, DECISIONS, type DecisionView, REASONS } from '../decisions/index.js';
import { validationError } from '../infra/errors.js';
import { can } from '../tenants/index.js';
import type { ConsoleDeps } from './console-deps.js';
import { type Html, html, query } from './html.js';
import { csrfField, when } from './layout.js';
import { allowed, callerContext, field, sessionOf } from './session.js';

/**
 * Decisions on matches (issue 16, items 3 and 4): "False positive" and "Confirm match" under each
 * match of a screening and on each alert, the match's latest decision and whether it was suppressed,
 * and the four-eyes approvals waiting for the signed-in user. Every change goes through the
 * decisions service of POST /screenings/{id}/decisions, POST /alerts/{id}/decisions and
 * POST /decisions/{id}/approve.
 */

const REASON_LABELS: Record<(typeof REASONS)[number], string> = {
  different_birth_date: 'Different birth date',
  different_nationality: 'Different nationality',
  different_gender: 'Different gender',
  different_entity_type: 'Different entity type',
  different_identifier: 'Different identifier',
  name_coincidence: 'Name coincidence',
  other: 'Other (explain in the note)',
};

const DECISION_LABELS: Record<string, string> = {
  confirmed: 'Confirmed match',
  false_positive: 'False positive',
  needs_information: 'Needs information',
};

/** What a match carries about decisions: its latest decision, and whether a false positive suppressed it. */
export interface DecidedMatch {
  entity: { id: string; name: string };
  decision?: DecisionView;
  suppressed?: boolean;
  decisionId?: string;
  suppressionLapsed?: { decisionId: string; reason: string; lapsedAt: string };
}

/** The latest decision and the suppression state of one match, in words. */
export function decisionState(match: DecidedMatch): Html {
  const decision = match.decision;
  return html`<div class="decision-state">
    <p>
      <strong>Suppressed:</strong>
      ${
        match.suppressed
          ? html`yes, by an earlier false positive (<code>${match.decisionId ?? ''}</code>): it did not raise the risk`
          : 'no'
      }${
        match.suppressionLapsed
          ? html`; an earlier false positive lapsed (${match.suppressionLapsed.reason.replace(/_/g, ' ')})`
          : ''
      }
    </p>
    <p>
      <strong>Latest decision:</strong>
      ${
        decision
          ? html`${DECISION_LABELS[decision.decision] ?? decision.decision}${decision.reason ? ` (${decision.reason.replace(/_/g, ' ')})` : ''},
            ${decision.status}, by ${decision.decidedBy}
            ${when(decision.createdAt)}${decision.note ? html`; note: ${decision.note}` : ''}`
          : 'none'
      }
    </p>
  </div>`;
}

/** The decision form of one match; `action` is the page's decisions URL; `key` makes the field ids unique. */
export function decisionForm(session: SessionView, action: string, entityId: string, key: string): Html | undefined {
  if (!can(session.role, 'work')) return undefined;
  return html`<form class="decide row" method="post" action="${action}">
    ${csrfField(session)}
    <input type="hidden" name="entityId" value="${entityId}" />
    <label for="reason-${key}"
      >Reason
      <select id="reason-${key}" name="reason">
        <option value="">None (a false positive needs one)</option>
        ${REASONS.map((r) => html`<option value="${r}">${REASON_LABELS[r]}</option>`)}
      </select></label
    >
    <label for="dnote-${key}"
      >Decision note <input id="dnote-${key}" name="note" maxlength="2000" autocomplete="off"
    /></label>
    <button type="submit" name="decision" value="false_positive">False positive</button>
    <button type="submit" name="decision" value="confirmed" class="secondary">Confirm match</button>
  </form>`;
}

/** The decision of a posted form, checked by the service (reason required for a false positive, `other` needs a note). */
function decisionBody(request: FastifyRequest): DecisionRequestBody {
  const decision = field(request, 'decision');
  if (!(DECISIONS as readonly string[]).includes(decision))
    throw validationError('decision', `must be one of ${DECISIONS.join(', ')}`);
  const reason = field(request, 'reason');
  const note = field(request, 'note');
  return {
    entityId: field(request, 'entityId'),
    decision: decision as DecisionRequestBody['decision'],
    ...(reason ? { reason: reason as DecisionRequestBody['reason'] } : {}),
    ...(note.trim() ? { note } : {}),
  } as DecisionRequestBody;
}

function decidedNotice(view: DecisionView): string {
  return view.status === 'pending' ? 'pending' : 'decided';
}

export const DECIDED_NOTICES: Record<string, string> = {
  decided: 'The decision is recorded.',
  pending: 'The decision is recorded and waits for a second user to approve it (four-eyes).',
  approved: 'The decision is approved.',
};

/** Pending decisions of the organization made by someone else: the four-eyes approvals this user may give. */
export async function approvalsFor(deps: ConsoleDeps, request: FastifyRequest): Promise<DecisionView[]> {
  const session = sessionOf(request);
  const { items } = await deps.services.decisions.listDecisions({
    ctx: callerContext(request, deps.db, deps.clock),
    input: { page: 1, pageSize: 100, status: 'pending' },
  });
  return items.filter((d) => d.decidedBy !== session.email);
}

export function approvalsTable(session: SessionView, items: DecisionView[]): Html {
  if (items.length === 0) return html`<p>Nothing waits for your approval.</p>`;
  const mayApprove = can(session.role, 'work');
  return html`<table>
    <thead>
      <tr>
        <th scope="col">Decided</th>
        <th scope="col">Match</th>
        <th scope="col">Decision</th>
        <th scope="col">By</th>
        <th scope="col">On</th>
        <th scope="col">Approve</th>
      </tr>
    </thead>
    <tbody>
      ${items.map(
        (d) =>
          html`<tr>
            <td>${when(d.createdAt)}</td>
            <td>${d.entityName} <span class="muted">(${d.matchLevel}, ${d.matchScore})</span></td>
            <td>
              ${DECISION_LABELS[d.decision] ?? d.decision}${d.reason ? ` (${d.reason.replace(/_/g, ' ')})` : ''}${d.note ? html`<br />Note: ${d.note}` : ''}
            </td>
            <td>${d.decidedBy}</td>
            <td>
              ${d.screeningId ? html`<a href="/console/screenings/${encodeURIComponent(d.screeningId)}">screening</a>` : 'alert'}
            </td>
            <td>
              ${
                mayApprove
                  ? html`<form method="post" action="/console/decisions/${encodeURIComponent(d.id)}/approve">
                      ${csrfField(session)}
                      <button type="submit" aria-label="Approve the decision on ${d.entityName}">Approve</button>
                    </form>`
                  : html`<span class="muted">your role may not approve</span>`
              }
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

export function decisionPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const { decisions } = deps.services;
  const caller = (request: FastifyRequest) => callerContext(request, deps.db, deps.clock);

  app.post('/screenings/:id/decisions', async (request, reply) => {
    allowed(request, 'work');
    const { id } = request.params as { id: string };
    const view = await decisions.decideOnScreening({
      ctx: caller(request),
      input: { screeningId: id, body: decisionBody(request) },
    });
    return reply.redirect(`/console/screenings/${encodeURIComponent(id)}${query({ done: decidedNotice(view) })}`, 303);
  });

  app.post('/alerts/:id/decisions', async (request, reply) => {
    allowed(request, 'work');
    const { id } = request.params as { id: string };
    const view = await decisions.decideOnAlert({
      ctx: caller(request),
      input: { alertId: id, body: decisionBody(request) },
    });
    return reply.redirect(`/console/alerts${query({ done: decidedNotice(view) })}`, 303);
  });

  app.post('/decisions/:id/approve', async (request, reply) => {
    allowed(request, 'work');
    const { id } = request.params as { id: string };
    await decisions.approve({ ctx: caller(request), input: { id } });
    return reply.redirect(`/console/alerts${query({ done: 'approved' })}`, 303);
  });
}
