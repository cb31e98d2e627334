import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../infra/errors.js';
import { ROLES } from '../tenants/index.js';
import type { ConsoleDeps } from './console-deps.js';
import { type Html, html } from './html.js';
import { csrfField, notice, page, readOnly, when } from './layout.js';
import { allowed, field, sessionOf } from './session.js';

/** Settings: API keys, the webhook (URL, secret, test send, delivery log, resume) and users with their roles. */

const TABS = [
  { id: 'keys', label: 'API keys' },
  { id: 'webhook', label: 'Webhook' },
  { id: 'users', label: 'Users and roles' },
  { id: 'sso', label: 'Single sign-on' },
  { id: 'profile', label: 'Screening profile' },
] as const;

/** The settings tabs, the current one marked (console/profile-page.ts shows them too). */
export function settingsTabs(current: (typeof TABS)[number]['id']): Html {
  return tabs(current);
}

export function tabs(current: (typeof TABS)[number]['id']): Html {
  return html`<nav aria-label="Settings">
    <ul class="pager">
      ${TABS.map(
        (t) =>
          html`<li>
            <a href="/console/settings/${t.id}" ${t.id === current ? html` aria-current="page"` : ''}>${t.label}</a>
          </li>`,
      )}
    </ul>
  </nav>`;
}

/** A secret shown once, with a copy button. */
function shownOnce(id: string, label: string, value: string): Html {
  return html`<div class="notice ok" role="status">
    <p><strong>${label}</strong> It is shown only this once: store it now.</p>
    <p class="secret" id="${id}">${value}</p>
    <p><button type="button" class="secondary" data-copy="${id}">Copy</button></p>
  </div>`;
}

/** Service errors a settings form shows next to itself; others become the error page. */
export function formError(error: unknown): Html {
  if (error instanceof AppError && error.status < 500 && error.code !== 'FORBIDDEN')
    return notice('error', error.message);
  throw error;
}

export function settingsPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const { tenants, webhooks, accounts } = deps.services;
  const ctx = () => ({ db: deps.db, clock: deps.clock });
  const send = (reply: FastifyReply, body: string) => reply.type('text/html; charset=utf-8').send(body);

  app.get('/settings', async (_request, reply) => reply.redirect('/console/settings/keys', 303));

  // API keys
  const keysPage = async (request: FastifyRequest, message?: Html) => {
    const session = sessionOf(request);
    const keys = await tenants.listApiKeys({ ctx: ctx(), input: { org: session.orgSlug } });
    const mayAdminister = readOnly(session, 'administer') === undefined;
    return page(
      { title: 'Settings', session, section: 'settings', notice: message },
      html`${tabs('keys')}
        <h2>API keys</h2>
        ${
          readOnly(session, 'administer') ??
          html`<form class="row" method="post" action="/console/settings/keys">
              ${csrfField(session)}
              <label for="expiresAt">Expires on (optional) <input id="expiresAt" name="expiresAt" type="date" /></label>
              <button type="submit">Create API key</button>
            </form>
            <p class="muted">
              A key belongs to you (${session.email}) and acts for ${session.orgName}; it stops working when revoked,
              when it expires or when you leave the organization.
            </p>`
        }
        <table>
          <thead>
            <tr>
              <th scope="col">Prefix</th>
              <th scope="col">Owner</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Status</th>
              <th scope="col"></th>
            </tr>
          </thead>
          <tbody>
            ${keys.map(
              (k) =>
                html`<tr>
                  <td><code>${k.prefix}</code></td>
                  <td>${k.user}</td>
                  <td>${when(k.createdAt)}</td>
                  <td>${k.expiresAt ? when(k.expiresAt) : html`<span class="muted">no expiry</span>`}</td>
                  <td>${k.status}</td>
                  <td>
                    ${
                      mayAdminister && k.status === 'active'
                        ? html`<form
                            class="inline"
                            method="post"
                            action="/console/settings/keys/${encodeURIComponent(k.id)}/revoke"
                          >
                            ${csrfField(session)}<button type="submit" class="danger">Revoke</button>
                          </form>`
                        : ''
                    }
                  </td>
                </tr>`,
            )}
          </tbody>
        </table>
        ${keys.length === 0 ? html`<p>No keys yet.</p>` : ''}`,
    );
  };

  app.get('/settings/keys', async (request, reply) => {
    const done = (request.query as Record<string, string>).done;
    return send(reply, await keysPage(request, done === 'revoked' ? notice('ok', 'The key is revoked.') : undefined));
  });

  app.post('/settings/keys', async (request, reply) => {
    const session = allowed(request, 'administer');
    const expires = field(request, 'expiresAt').trim();
    let message: Html;
    try {
      const key = await tenants.createApiKey({
        ctx: ctx(),
        // A date alone expires at the end of that day (UTC).
        input: {
          org: session.orgSlug,
          email: session.email,
          ...(expires ? { expiresAt: `${expires}T23:59:59Z` } : {}),
        },
      });
      message = shownOnce('new-key', `New API key ${key.prefix}…`, key.key);
    } catch (error) {
      message = formError(error);
      void reply.status(400);
    }
    return send(reply, await keysPage(request, message));
  });

  app.post('/settings/keys/:id/revoke', async (request, reply) => {
    const session = allowed(request, 'administer');
    const { id } = request.params as { id: string };
    await tenants.revokeApiKey({ ctx: ctx(), input: { id, orgId: session.orgId } });
    return reply.redirect('/console/settings/keys?done=revoked', 303);
  });

  // Webhook
  const webhookPage = async (request: FastifyRequest, message?: Html) => {
    const session = sessionOf(request);
    const [status, deliveries] = await Promise.all([
      webhooks.status({ ctx: ctx(), input: { org: session.orgSlug } }),
      webhooks.deliveries({ ctx: ctx(), input: { org: session.orgSlug, limit: 50 } }),
    ]);
    const forms =
      readOnly(session, 'administer') ??
      html`<form class="row" method="post" action="/console/settings/webhook">
          ${csrfField(session)}
          <label for="webhookUrl"
            >Webhook URL
            <input
              id="webhookUrl"
              name="webhookUrl"
              type="url"
              size="50"
              value="${status.url ?? ''}"
              placeholder="https://example.com/hooks/sanctions"
          /></label>
          <button type="submit">Save</button>
        </form>
        <div class="row" style="margin-top:12px">
          <form class="inline" method="post" action="/console/settings/webhook/secret">
            ${csrfField(session)}<button type="submit" class="secondary">Generate secret</button>
          </form>
          <form class="inline" method="post" action="/console/settings/webhook/test">
            ${csrfField(session)}<button type="submit" class="secondary">Send test</button>
          </form>
          ${status.paused ? html`<form class="inline" method="post" action="/console/settings/webhook/resume">${csrfField(session)}<button type="submit">Resume</button></form>` : ''}
        </div>`;
    return page(
      { title: 'Settings', session, section: 'settings', notice: message },
      html`${tabs('webhook')}
        <h2>Webhook</h2>
        <dl class="facts">
          <dt>URL</dt>
          <dd>${status.url ?? html`<span class="muted">not set</span>`}</dd>
          <dt>Signing secret</dt>
          <dd>${status.secretSet ? 'set' : 'not set'}</dd>
          <dt>State</dt>
          <dd>
            ${status.paused ? html`<strong>PAUSED</strong> since ${when(status.pausedAt)} after ${status.consecutiveFailures} failed attempts` : status.url ? 'active' : 'off'}
          </dd>
          <dt>Deliveries (test sends aside)</dt>
          <dd>${status.delivered} delivered, ${status.pending} pending, ${status.failed} failed</dd>
        </dl>
        ${forms}
        <h2>Delivery log</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Created</th>
              <th scope="col">Event</th>
              <th scope="col">State</th>
              <th scope="col">Attempts</th>
            </tr>
          </thead>
          <tbody>
            ${deliveries.map(
              (d) =>
                html`<tr>
                  <td>${when(d.createdAt)}<br /><code class="muted">${d.id}</code></td>
                  <td>${d.event}${d.test ? ' (test)' : ''}</td>
                  <td>
                    ${d.state}${d.nextAttemptAt ? html`<br /><span class="muted">next try ${when(d.nextAttemptAt)}</span>` : ''}
                  </td>
                  <td>
                    ${
                      d.attemptLog.length
                        ? html`<ol>
                            ${d.attemptLog.map((a) => html`<li>${when(a.startedAt)}: ${a.status !== null ? `HTTP ${a.status}` : 'no answer'}${a.error ? ` (${a.error})` : ''}, ${a.durationMs} ms</li>`)}
                          </ol>`
                        : html`<span class="muted">none yet</span>`
                    }
                  </td>
                </tr>`,
            )}
          </tbody>
        </table>
        ${deliveries.length === 0 ? html`<p>No deliveries yet.</p>` : ''}`,
    );
  };

  app.get('/settings/webhook', async (request, reply) => send(reply, await webhookPage(request)));

  app.post('/settings/webhook', async (request, reply) => {
    const session = allowed(request, 'administer');
    let message: Html;
    try {
      const url = field(request, 'webhookUrl').trim();
      await tenants.updateOrganization({ ctx: ctx(), input: { org: session.orgSlug, webhookUrl: url } });
      message = notice('ok', url ? 'The webhook URL is saved.' : 'The webhook URL is removed.');
    } catch (error) {
      message = formError(error);
      void reply.status(400);
    }
    return send(reply, await webhookPage(request, message));
  });

  app.post('/settings/webhook/secret', async (request, reply) => {
    const session = allowed(request, 'administer');
    // 256 bits, hex: well over the 16 characters the service requires.
    const secret = randomBytes(32).toString('hex');
    await tenants.updateOrganization({ ctx: ctx(), input: { org: session.orgSlug, webhookSecret: secret } });
    return send(reply, await webhookPage(request, shownOnce('new-secret', 'New signing secret.', secret)));
  });

  app.post('/settings/webhook/test', async (request, reply) => {
    const session = allowed(request, 'administer');
    let message: Html;
    try {
      const result = await webhooks.sendTest({ ctx: ctx(), input: { org: session.orgSlug } });
      message = result.delivered
        ? notice('ok', `Test delivered: the receiver answered HTTP ${result.status}.`)
        : notice(
            'error',
            `Test not delivered: ${result.status !== null ? `HTTP ${result.status}` : (result.error ?? 'no answer')}.`,
          );
    } catch (error) {
      message = formError(error);
      void reply.status(400);
    }
    return send(reply, await webhookPage(request, message));
  });

  app.post('/settings/webhook/resume', async (request, reply) => {
    const session = allowed(request, 'administer');
    const result = await webhooks.resume({ ctx: ctx(), input: { org: session.orgSlug } });
    return send(
      reply,
      await webhookPage(
        request,
        notice('ok', `The webhook is resumed; ${result.released} held deliveries are due now.`),
      ),
    );
  });

  // Users and roles
  const usersPage = async (request: FastifyRequest, message?: Html) => {
    const session = sessionOf(request);
    const users = await tenants.listUsers({ ctx: ctx(), input: { org: session.orgSlug } });
    const mayAdminister = readOnly(session, 'administer') === undefined;
    const roleSelect = (id: string, current: string) =>
      html`<select id="${id}" name="role">
        ${ROLES.map((r) => html`<option value="${r}" ${r === current ? html` selected` : ''}>${r}</option>`)}
      </select>`;
    return page(
      { title: 'Settings', session, section: 'settings', notice: message },
      html`${tabs('users')}
        <h2>Users and roles</h2>
        <p class="muted">
          Admin: settings, keys, webhook and users, and everything an analyst does. Analyst: screen, monitor, resolve
          and decide alerts, batches. Auditor: reads everything, changes nothing.
        </p>
        <table>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Member since</th>
            </tr>
          </thead>
          <tbody>
            ${users.map(
              (u, i) =>
                html`<tr>
                  <td>${u.email}</td>
                  <td>
                    ${
                      mayAdminister
                        ? html`<form class="row" method="post" action="/console/settings/users/role">
                            ${csrfField(session)}<input type="hidden" name="email" value="${u.email}" />
                            <label for="role-${i}">Role of ${u.email} ${roleSelect(`role-${i}`, u.role)}</label
                            ><button type="submit" class="secondary">Save</button>
                          </form>`
                        : u.role
                    }
                  </td>
                  <td>${when(u.created_at)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
        ${
          readOnly(session, 'administer') ??
          html`<h2>Invite a user</h2>
            <form class="row" method="post" action="/console/settings/users/invite">
              ${csrfField(session)}
              <label for="inviteEmail">Email <input id="inviteEmail" name="email" type="email" required /></label>
              <label for="inviteRole">Role ${roleSelect('inviteRole', 'analyst')}</label>
              <button type="submit">Invite</button>
            </form>
            <p class="muted">
              The link lets the user set a password once; for a member who has one, it is a reset link. Send it to them
              yourself.
            </p>`
        }`,
    );
  };

  app.get('/settings/users', async (request, reply) => send(reply, await usersPage(request)));

  app.post('/settings/users/role', async (request, reply) => {
    const session = allowed(request, 'administer');
    let message: Html;
    try {
      const email = field(request, 'email');
      if (email.trim().toLowerCase() === session.email && field(request, 'role') !== 'admin')
        throw new AppError('VALIDATION_ERROR', 'role: you cannot take the admin role from yourself', { field: 'role' });
      const result = await tenants.setRole({
        ctx: ctx(),
        input: { org: session.orgSlug, email, role: field(request, 'role') },
      });
      message = notice('ok', `${result.email} is now ${result.role}.`);
    } catch (error) {
      message = formError(error);
      void reply.status(400);
    }
    return send(reply, await usersPage(request, message));
  });

  app.post('/settings/users/invite', async (request, reply) => {
    const session = allowed(request, 'administer');
    let message: Html;
    try {
      const invitation = await accounts.invite({
        ctx: ctx(),
        input: { org: session.orgSlug, email: field(request, 'email'), role: field(request, 'role') },
      });
      message = shownOnce(
        'invite-link',
        `${invitation.purpose === 'reset' ? 'Reset' : 'Invitation'} link for ${invitation.email} (expires ${invitation.expiresAt}).`,
        invitation.url,
      );
    } catch (error) {
      message = formError(error);
      void reply.status(400);
    }
    return send(reply, await usersPage(request, message));
  });
}
