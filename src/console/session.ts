import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountsService, SessionView } from '../accounts/index.js';
import type { Clock } from '../infra/clock.js';
import type { Db } from '../infra/database.js';
import { AppError } from '../infra/errors.js';
import { type CallerContext, can, type Permission } from '../tenants/index.js';

/**
 * Sessions and CSRF protection of the console. The session cookie holds a random token (its hash is
 * the session's key in the database); it is HttpOnly, SameSite=Lax, limited to /console, and Secure
 * when the request came over TLS (directly, or as X-Forwarded-Proto says when TRUST_PROXY is set).
 * Every POST must carry the synchronizer token of its session (`_csrf`); the sign-in and
 * password forms, made before there is a session, carry a token that must equal a cookie of their
 * own (double submit). A POST whose Origin header names another origin is refused as well.
 */

export const SESSION_COOKIE = 'sanctions_session';
export const FORM_COOKIE = 'sanctions_form';
/** Binds a single sign-on under way to the browser that started it (issue 33). */
export const SSO_COOKIE = 'sanctions_sso';

declare module 'fastify' {
  interface FastifyRequest {
    consoleSession?: SessionView;
  }
}

/** A form field: a string (url-encoded forms) or, in a multipart form (the batch upload), a part holding `value`. */
type FormValue = string | { type?: string; value?: unknown };
export type FormBody = Record<string, FormValue | FormValue[] | undefined>;

function text(value: FormValue | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return value.type === 'field' && typeof value.value === 'string' ? value.value : '';
}

/** One text field of a posted form ('' when absent; the first value when repeated). */
export function field(request: FastifyRequest, name: string): string {
  const body = (request.body ?? {}) as FormBody;
  const value = body[name];
  return text(Array.isArray(value) ? value[0] : value);
}

export function cookieOptions(request: FastifyRequest) {
  return { path: '/console', httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https' };
}

export function sameToken(given: string, expected: string): boolean {
  const givenBytes = Buffer.from(given);
  const expectedBytes = Buffer.from(expected);
  return (
    givenBytes.length === expectedBytes.length && givenBytes.length > 0 && timingSafeEqual(givenBytes, expectedBytes)
  );
}

/** The signed-in session of a page that requires one (the hook has checked that it is there). */
export function sessionOf(request: FastifyRequest): SessionView {
  const session = request.consoleSession;
  if (!session) throw new AppError('UNAUTHORIZED', 'sign in to use the console');
  return session;
}

/** The session, when its role grants the permission; a 403 page otherwise. */
export function allowed(request: FastifyRequest, permission: Permission): SessionView {
  const session = sessionOf(request);
  if (!can(session.role, permission)) {
    const what = permission === 'administer' ? 'change settings, keys, the webhook or users' : 'change anything';
    throw new AppError('FORBIDDEN', `your role (${session.role}) may not ${what}`);
  }
  return session;
}

/** The context the API's services expect, acting for the signed-in user's organization. */
export function callerContext(request: FastifyRequest, db: Db, clock: Clock): CallerContext {
  const session = sessionOf(request);
  return {
    db,
    clock,
    requestId: request.id,
    caller: {
      orgId: session.orgId,
      orgSlug: session.orgSlug,
      orgName: session.orgName,
      tier: session.tier,
      quota: session.quota,
      // Screenings record the key that ran them; console screenings name the user instead.
      keyId: `console:${session.userId}`,
      userId: session.userId,
    },
  };
}

const PUBLIC = [/^\/console\/login\/?$/, /^\/console\/invitations\/[^/]+\/?$/, /^\/console\/sso\/(start|callback)\/?$/];

export function isPublicPath(path: string): boolean {
  return PUBLIC.some((p) => p.test(path));
}

/** onRequest: finds the session of the cookie; pages other than sign-in and links need one. */
export async function loadSession(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: { accounts: AccountsService; db: Db; clock: Clock },
): Promise<FastifyReply | undefined> {
  const path = request.url.split('?', 1)[0] ?? '';
  const token = request.cookies[SESSION_COOKIE];
  if (token) {
    const session = await deps.accounts.session({ ctx: { db: deps.db, clock: deps.clock }, input: { token } });
    if (session) request.consoleSession = session;
    else void reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
  }
  if (request.consoleSession || isPublicPath(path)) return undefined;
  if (request.method === 'GET' || request.method === 'HEAD') return reply.redirect('/console/login', 303);
  throw new AppError('UNAUTHORIZED', 'your session has ended; sign in again');
}

/** preHandler: every POST carries its form token, and comes from this origin. */
export function checkForm(request: FastifyRequest): void {
  if (request.method !== 'POST') return;
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== 'null' && origin !== `${request.protocol}://${request.host}`) {
    throw new AppError('FORBIDDEN', 'the form was sent from another site');
  }
  if (origin === 'null') throw new AppError('FORBIDDEN', 'the form was sent from an opaque origin');
  const given = field(request, '_csrf');
  const session = request.consoleSession;
  const path = request.url.split('?', 1)[0] ?? '';
  const expected = isPublicPath(path) || !session ? (request.cookies[FORM_COOKIE] ?? '') : session.csrfToken;
  if (!sameToken(given, expected)) {
    throw new AppError(
      'FORBIDDEN',
      'the form could not be accepted (missing or stale form token); reload the page and try again',
    );
  }
}
