import type { FastifyInstance, FastifyRequest } from 'fastify';
import { newToken, SsoRefused } from '../accounts/index.js';
import { AppError } from '../infra/errors.js';
import { formToken, signInForm } from './auth-pages.js';
import type { ConsoleDeps } from './console-deps.js';
import { html } from './html.js';
import { notice, page } from './layout.js';
import { cookieOptions, SESSION_COOKIE, SSO_COOKIE } from './session.js';

/**
 * Sign-in through the organization's identity provider (issue 33). /console/sso/start sends the
 * browser to the provider; the provider sends it back to /console/sso/callback, which opens a session
 * or shows a page saying why the sign-in was refused.
 */

export function ssoPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const { sso } = deps.services;
  const ctx = () => ({ db: deps.db, clock: deps.clock });
  // The callback address the provider knows: PUBLIC_URL when set, else the address the browser used.
  const origin = (request: FastifyRequest) => deps.config.http.publicUrl ?? `${request.protocol}://${request.host}`;

  app.get('/sso/start', async (request, reply) => {
    const org = String((request.query as Record<string, unknown>).org ?? '');
    const browserToken = newToken();
    let url: string;
    try {
      ({ url } = await sso.start({ ctx: ctx(), input: { org, origin: origin(request), browserToken } }));
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      return reply
        .status(error.status)
        .type('text/html; charset=utf-8')
        .send(signInForm(formToken(request, reply), '', notice('error', error.message), org));
    }
    void reply.setCookie(SSO_COOKIE, browserToken, { ...cookieOptions(request), maxAge: 3600 });
    // A page that moves on by itself rather than a redirect: the sign-in page's Content-Security-Policy
    // (form-action 'self') would stop a form's redirect to the provider's address.
    return reply.type('text/html; charset=utf-8').send(
      page(
        { title: 'Single sign-on' },
        html`<meta http-equiv="refresh" content="0;url=${url}" />
          <p>Taking you to your organization's identity provider…</p>
          <p><a id="continue" href="${url}">Continue</a></p>`,
      ),
    );
  });

  app.get('/sso/callback', async (request, reply) => {
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    try {
      const result = await sso.finish({
        ctx: ctx(),
        input: { query, browserToken: request.cookies[SSO_COOKIE] ?? '', address: request.ip },
      });
      void reply.clearCookie(SSO_COOKIE, cookieOptions(request));
      void reply.setCookie(SESSION_COOKIE, result.token, cookieOptions(request));
      return reply.redirect('/console/screen', 303);
    } catch (error) {
      if (!(error instanceof SsoRefused)) throw error;
      void reply.clearCookie(SSO_COOKIE, cookieOptions(request));
      return reply
        .status(403)
        .type('text/html; charset=utf-8')
        .send(
          page(
            { title: 'Sign-in refused' },
            html`<div class="notice error" role="alert" data-reason="${error.reason}">
                <p><strong>Sign-in refused:</strong> ${error.message}.</p>
              </div>
              <p><a href="/console/login">Back to sign in</a></p>`,
          ),
        );
    }
  });
}
