import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MIN_PASSWORD_LENGTH, newToken } from '../accounts/index.js';
import { AppError } from '../infra/errors.js';
import type { ConsoleDeps } from './console-deps.js';
import { type Html, html } from './html.js';
import { csrfField, notice, page } from './layout.js';
import { cookieOptions, field, FORM_COOKIE, SESSION_COOKIE, sessionOf } from './session.js';

/** Sign-in, sign-out, invitation and reset links, and the choice of organization. */

/** The token of the anonymous forms, kept in a cookie of its own (double submit). */
export function formToken(request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[FORM_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = newToken();
  void reply.setCookie(FORM_COOKIE, token, cookieOptions(request));
  return token;
}

const MESSAGES: Record<string, string> = {
  'signed-out': 'You are signed out.',
  'password-set': 'Your password is set. Sign in with it.',
  expired: 'Your session has ended. Sign in again.',
};

/** The way in through an organization's identity provider (sso-pages.ts). */
export function ssoForm(org: string): Html {
  return html`<h2>Single sign-on</h2>
    <form class="row" method="get" action="/console/sso/start">
      <label for="sso-org">Organization <input id="sso-org" name="org" required value="${org}" /></label>
      <button type="submit" class="secondary">Continue with single sign-on</button>
    </form>
    <p class="muted">
      For organizations that sign in through their identity provider: give the organization's short name.
    </p>`;
}

export function signInForm(token: string, email: string, message?: Html, org = ''): string {
  return page(
    { title: 'Sign in', notice: message },
    html`<form class="stack" method="post" action="/console/login">
        <input type="hidden" name="_csrf" value="${token}" />
        <label for="email"
          >Email <input id="email" name="email" type="email" autocomplete="username" required value="${email}"
        /></label>
        <label for="password"
          >Password <input id="password" name="password" type="password" autocomplete="current-password" required
        /></label>
        <div><button type="submit">Sign in</button></div>
      </form>
      <p class="muted">
        No password yet, or forgot it? Ask your organization's admin for a link (<code>sanctions users invite</code>).
      </p>
      ${ssoForm(org)}`,
  );
}

export function authPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const { accounts } = deps.services;
  const ctx = () => ({ db: deps.db, clock: deps.clock });

  app.get('/login', async (request, reply) => {
    if (request.consoleSession) return reply.redirect('/console/screen', 303);
    const query = request.query as Record<string, string>;
    const message = MESSAGES[query.done ?? ''];
    return reply
      .type('text/html; charset=utf-8')
      .send(signInForm(formToken(request, reply), '', message ? notice('ok', message) : undefined, query.org ?? ''));
  });

  app.post('/login', async (request, reply) => {
    const email = field(request, 'email');
    try {
      const result = await accounts.signIn({
        ctx: ctx(),
        input: { email, password: field(request, 'password'), address: request.ip },
      });
      void reply.setCookie(SESSION_COOKIE, result.token, cookieOptions(request));
      return reply.redirect(result.organizations > 1 ? '/console/organizations' : '/console/screen', 303);
    } catch (error) {
      if (!(error instanceof AppError) || (error.code !== 'UNAUTHORIZED' && error.code !== 'RATE_LIMITED')) throw error;
      for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
      return reply
        .status(error.status)
        .type('text/html; charset=utf-8')
        .send(signInForm(formToken(request, reply), email, notice('error', error.message)));
    }
  });

  app.post('/logout', async (request, reply) => {
    const session = sessionOf(request);
    await accounts.signOut({ ctx: ctx(), input: { tokenHash: session.tokenHash } });
    void reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
    return reply.redirect('/console/login?done=signed-out', 303);
  });

  const passwordPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    info: { email: string; orgName: string; purpose: string },
    message?: Html,
  ) =>
    page(
      { title: info.purpose === 'reset' ? 'Reset your password' : 'Set your password', notice: message },
      html`<p>
          For <strong>${info.email}</strong>, member of ${info.orgName}. At least ${MIN_PASSWORD_LENGTH} characters; a
          passphrase of a few words is good.
        </p>
        <form class="stack" method="post">
          <input type="hidden" name="_csrf" value="${formToken(request, reply)}" />
          <input type="text" name="username" autocomplete="username" value="${info.email}" hidden />
          <label for="password"
            >Password
            <input
              id="password"
              name="password"
              type="password"
              autocomplete="new-password"
              minlength="${MIN_PASSWORD_LENGTH}"
              required
          /></label>
          <label for="confirm"
            >Repeat password <input id="confirm" name="confirm" type="password" autocomplete="new-password" required
          /></label>
          <div><button type="submit">Save</button></div>
        </form>`,
    );

  app.get('/invitations/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    const info = await accounts.invitation({ ctx: ctx(), input: { token } });
    return reply.type('text/html; charset=utf-8').send(passwordPage(request, reply, info));
  });

  app.post('/invitations/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    const info = await accounts.invitation({ ctx: ctx(), input: { token } });
    const password = field(request, 'password');
    try {
      if (password !== field(request, 'confirm'))
        throw new AppError('VALIDATION_ERROR', 'the two passwords differ', { field: 'confirm' });
      await accounts.acceptInvitation({ ctx: ctx(), input: { token, password } });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'VALIDATION_ERROR') throw error;
      return reply
        .status(400)
        .type('text/html; charset=utf-8')
        .send(passwordPage(request, reply, info, notice('error', error.message)));
    }
    void reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
    return reply.redirect('/console/login?done=password-set', 303);
  });

  app.get('/organizations', async (request, reply) => {
    const session = sessionOf(request);
    const orgs = await accounts.organizations({ ctx: ctx(), input: { userId: session.userId } });
    return reply.type('text/html; charset=utf-8').send(
      page(
        { title: 'Organizations', session, section: 'none' },
        html`<p>You act for one organization at a time.</p>
          <table>
            <thead>
              <tr>
                <th scope="col">Organization</th>
                <th scope="col">Your role</th>
                <th scope="col"></th>
              </tr>
            </thead>
            <tbody>
              ${orgs.map(
                (o) =>
                  html`<tr>
                    <td>${o.name} <span class="muted">(${o.slug})</span></td>
                    <td>${o.role}</td>
                    <td>
                      ${
                        o.id === session.orgId
                          ? html`<strong>current</strong>`
                          : html`<form class="inline" method="post" action="/console/organizations">
                              ${csrfField(session)}<input type="hidden" name="org" value="${o.slug}" /><button
                                type="submit"
                              >
                                Switch to ${o.name}
                              </button>
                            </form>`
                      }
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`,
      ),
    );
  });

  app.post('/organizations', async (request, reply) => {
    const session = sessionOf(request);
    await accounts.switchOrganization({ ctx: ctx(), input: { session, orgSlug: field(request, 'org') } });
    return reply.redirect('/console/screen', 303);
  });
}
