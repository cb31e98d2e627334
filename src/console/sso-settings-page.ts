import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CALLBACK_PATH, type SsoSettingsView } from '../accounts/index.js';
import type { ConsoleDeps } from './console-deps.js';
import { type Html, html } from './html.js';
import { csrfField, notice, page, readOnly, when } from './layout.js';
import { allowed, field, sessionOf } from './session.js';
import { formError, tabs } from './settings-pages.js';

/** Settings, "Single sign-on": the organization's OpenID Connect provider and its group-to-role mapping (issue 33). */

function facts(sso: SsoSettingsView | null, redirectUri: string): Html {
  if (!sso)
    return html`<p>
      Single sign-on is off: members sign in with passwords. Register <code>${redirectUri}</code> as the redirect URI of
      a confidential client at your identity provider, then fill in the form.
    </p>`;
  return html`<dl class="facts">
    <dt>Issuer</dt>
    <dd><code>${sso.issuer}</code></dd>
    <dt>Client id</dt>
    <dd><code>${sso.clientId}</code> (secret set)</dd>
    <dt>Redirect URI to register</dt>
    <dd><code>${redirectUri}</code></dd>
    <dt>Allowed email domains</dt>
    <dd>${sso.domains.join(', ')}</dd>
    <dt>Role claim</dt>
    <dd><code>${sso.roleClaim}</code></dd>
    <dt>Groups</dt>
    <dd>admin: ${sso.adminGroup ?? '—'} · analyst: ${sso.analystGroup ?? '—'} · auditor: ${sso.auditorGroup ?? '—'}</dd>
    <dt>Password sign-in</dt>
    <dd>${sso.passwordLogin ? 'allowed as well' : 'off: members sign in through the provider only'}</dd>
    <dt>Changed</dt>
    <dd>${when(sso.updatedAt)}</dd>
  </dl>`;
}

function input(id: string, label: string, value: string, extra: Html | string = ''): Html {
  return html`<label for="${id}">${label} <input id="${id}" name="${id}" value="${value}" ${extra} /></label>`;
}

export function ssoSettingsPage(app: FastifyInstance, deps: ConsoleDeps): void {
  const { sso } = deps.services;
  const ctx = () => ({ db: deps.db, clock: deps.clock });
  const origin = (request: FastifyRequest) => deps.config.http.publicUrl ?? `${request.protocol}://${request.host}`;
  const send = (reply: FastifyReply, body: string) => reply.type('text/html; charset=utf-8').send(body);

  const render = async (request: FastifyRequest, message?: Html) => {
    const session = sessionOf(request);
    const current = await sso.show({ ctx: ctx(), input: { org: session.orgSlug } });
    const settings = current;
    const form =
      readOnly(session, 'administer') ??
      html`<form class="stack" method="post" action="/console/settings/sso">
        ${csrfField(session)}
        ${input('issuer', 'Issuer URL', settings?.issuer ?? '', html`type="url" size="60" required`)}
        ${input('clientId', 'Client id', settings?.clientId ?? '', html`required`)}
        ${input('clientSecret', settings ? 'Client secret (leave empty to keep)' : 'Client secret', '', html`type="password" autocomplete="off"`)}
        ${input('domains', 'Allowed email domains (comma-separated)', settings?.domains.join(', ') ?? '', html`required`)}
        ${input('roleClaim', 'Role claim', settings?.roleClaim ?? 'groups')}
        ${input('adminGroup', 'Admin group', settings?.adminGroup ?? '')}
        ${input('analystGroup', 'Analyst group', settings?.analystGroup ?? '')}
        ${input('auditorGroup', 'Auditor group', settings?.auditorGroup ?? '')}
        ${input('scopes', 'Scopes', settings?.scopes ?? 'openid email profile')}
        <label for="passwordLogin"
          ><input
            id="passwordLogin"
            name="passwordLogin"
            type="checkbox"
            value="on"
            ${settings && !settings.passwordLogin ? '' : html`checked`}
          />
          Members may also sign in with a password (unticked: password sessions end at once)</label
        >
        <div><button type="submit">Save single sign-on</button></div>
      </form>`;
    return page(
      { title: 'Settings', session, section: 'settings', notice: message },
      html`${tabs('sso')}
        <h2>Single sign-on</h2>
        ${facts(current, `${origin(request)}${CALLBACK_PATH}`)}
        <p class="muted">
          A user signs in through the provider with an email in one of the domains; their role follows their groups at
          each sign-in (the strongest wins); a user in none of the groups is refused and loses their membership and
          sessions here.
        </p>
        ${form}`,
    );
  };

  app.get('/settings/sso', async (request, reply) => {
    const done = (request.query as Record<string, string>).done;
    return send(reply, await render(request, done === 'saved' ? notice('ok', 'Single sign-on is saved.') : undefined));
  });

  app.post('/settings/sso', async (request, reply) => {
    const session = allowed(request, 'administer');
    try {
      await sso.configure({
        ctx: ctx(),
        actor: session.userId,
        input: {
          org: session.orgSlug,
          issuer: field(request, 'issuer'),
          clientId: field(request, 'clientId'),
          clientSecret: field(request, 'clientSecret'),
          domains: field(request, 'domains'),
          roleClaim: field(request, 'roleClaim') || 'groups',
          adminGroup: field(request, 'adminGroup'),
          analystGroup: field(request, 'analystGroup'),
          auditorGroup: field(request, 'auditorGroup'),
          scopes: field(request, 'scopes') || 'openid email profile',
          passwordLogin: field(request, 'passwordLogin') === 'on',
        },
      });
    } catch (error) {
      void reply.status(400);
      return send(reply, await render(request, formError(error)));
    }
    return reply.redirect('/console/settings/sso?done=saved', 303);
  });
}
