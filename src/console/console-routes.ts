import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import { AppError } from '../infra/errors.js';
import { SCRIPT, STYLESHEET } from './assets.js';
import type { ConsoleDeps } from './console-deps.js';
import { auditPage } from './audit-page.js';
import { authPages } from './auth-pages.js';
import { batchPages, registerUploads } from './batch-pages.js';
import { decisionPages } from './decision-pages.js';
import { html } from './html.js';
import { page } from './layout.js';
import { listsPage } from './lists-page.js';
import { monitoringPages } from './monitoring-pages.js';
import { screeningPages } from './screening-pages.js';
import { checkForm, loadSession } from './session.js';
import { profilePage } from './profile-page.js';
import { settingsPages } from './settings-pages.js';
import { validationPages } from './validation-pages.js';
import { ssoPages } from './sso-pages.js';
import { ssoSettingsPage } from './sso-settings-page.js';

/** What the console needs: the services the API and the command line use, made once in start/services.ts. */
export type { ConsoleDeps, PageModule } from './console-deps.js';

/** Content Security Policy: only this origin's stylesheet and script; no frames, no inline code. */
const CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const TITLES: Record<number, string> = {
  400: 'Check the form',
  401: 'Sign in again',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Already done',
  429: 'Too many attempts',
  503: 'Not ready yet',
};

/**
 * The web console under /console (issue 16): server-rendered pages with plain forms, served by the
 * API's own server. Its own content-type parser (forms), cookies, error pages and 404 page stay
 * inside this plugin; the API's routes and envelopes are untouched.
 */
export function consoleRoutes(deps: ConsoleDeps): FastifyPluginAsync {
  return async (app) => {
    // Pages, not API: kept out of the OpenAPI document.
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    await app.register(fastifyCookie);
    await app.register(fastifyFormbody);
    await registerUploads(app);

    app.addHook('onRequest', async (request, reply) => {
      void reply
        .header('Content-Security-Policy', CSP)
        .header('X-Frame-Options', 'DENY')
        .header('X-Content-Type-Options', 'nosniff')
        // Invitation links carry their token in the path: never send it to another site as a referrer.
        // (Not no-referrer: with it, Chromium sends `Origin: null` on form posts, which the origin check refuses.)
        .header('Referrer-Policy', 'same-origin')
        .header('Cache-Control', 'no-store');
      if (request.url.startsWith('/console/assets/')) return;
      return loadSession(request, reply, { accounts: deps.services.accounts, db: deps.db, clock: deps.clock });
    });
    app.addHook('preHandler', async (request) => checkForm(request));

    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      const status = error instanceof AppError ? error.status : (error.statusCode ?? 500);
      if (status >= 500 && !(error instanceof AppError)) request.log.error({ err: error }, 'console page failed');
      const message =
        status >= 500 && !(error instanceof AppError)
          ? 'Something went wrong on the server. The error was logged.'
          : error.message;
      if (error instanceof AppError)
        for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
      const signIn = status === 401 ? html`<p><a href="/console/login">Sign in</a></p>` : '';
      return reply
        .status(status)
        .type('text/html; charset=utf-8')
        .send(
          page(
            { title: TITLES[status] ?? 'Error', session: request.consoleSession },
            html`<div class="notice error" role="alert"><p>${message}</p></div>
              ${signIn}
              <p><a href="/console">Back to the console</a></p>`,
          ),
        );
    });
    app.setNotFoundHandler((request, reply) =>
      reply
        .status(404)
        .type('text/html; charset=utf-8')
        .send(
          page(
            { title: 'Not found', session: request.consoleSession },
            html`<p>There is no page at this address.</p>
              <p><a href="/console">Back to the console</a></p>`,
          ),
        ),
    );

    app.get('/assets/console.css', async (_request, reply) => reply.type('text/css; charset=utf-8').send(STYLESHEET));
    app.get('/assets/console.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(SCRIPT));
    app.get('/', async (_request, reply) => reply.redirect('/console/screen', 303));

    for (const module of [
      authPages,
      screeningPages,
      decisionPages,
      monitoringPages,
      batchPages,
      validationPages,
      listsPage,
      auditPage,
      settingsPages,
      ssoPages,
      ssoSettingsPage,
      profilePage,
    ])
      module(app, deps);
  };
}
