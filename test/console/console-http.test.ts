import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import {
  ENGINES,
  type SeededOrg,
  type TestApp,
  activateRecords,
  sampleRecords,
  seedOrg,
  startTestApp,
} from '../helpers/harness.js';
import { ConsoleClient, linkPath } from '../helpers/console-client.js';

/**
 * The console over plain HTTP, on both engines: invitations, sessions and their expiry, CSRF, roles,
 * organizations kept apart, and the sign-in limits. The browser tests (SQLite) drive the same pages
 * in Chromium.
 */

const PASSWORD = 'correct horse battery staple';
const MINUTE = 60_000;

for (const { engine, skip } of ENGINES) {
  describe(`console over HTTP (${engine})`, { skip }, () => {
    let t: TestApp;
    let clock: ManualClock;
    let a: SeededOrg;
    let b: SeededOrg;

    const invite = async (org: string, email: string, role?: string) =>
      t.ctx.services.accounts.invite({ ctx: t.ctx.operator, input: { org, email, ...(role ? { role } : {}) } });

    /** A user of `org` with a password, signed in. */
    const member = async (org: string, email: string, role?: string) => {
      const link = await invite(org, email, role);
      const client = new ConsoleClient(t.url);
      await client.get(linkPath(link.url));
      const set = await client.post(linkPath(link.url), { password: PASSWORD, confirm: PASSWORD });
      assert.equal(set.status, 303, set.text);
      const signedIn = await client.signIn(email, PASSWORD);
      assert.equal(signedIn.status, 303, signedIn.text);
      return client;
    };

    before(async () => {
      clock = new ManualClock('2026-03-02T09:00:00.000Z');
      t = await startTestApp(engine, { clock, env: { CONSOLE_SIGNIN_ADDRESS_LIMIT: '8' } });
      const records = sampleRecords();
      await activateRecords(t.ctx, 'us_ofac', records.us_ofac);
      await activateRecords(t.ctx, 'un_csl', records.un_csl);
      a = await seedOrg(t.ctx, { slug: 'alpha' });
      b = await seedOrg(t.ctx, { slug: 'bravo' });
    });
    after(async () => t?.close());

    it('sets a password from a single-use link, then signs in with a HttpOnly, SameSite=Lax session cookie', async () => {
      const link = await invite('alpha', 'new.admin@alpha.test', 'admin');
      assert.equal(link.purpose, 'invite');
      assert.equal(link.newMember, true);
      assert.match(link.url, /^http:\/\/127\.0\.0\.1:8080\/console\/invitations\/[A-Za-z0-9_-]{43}$/);
      const client = new ConsoleClient(t.url);
      const form = await client.get(linkPath(link.url));
      assert.equal(form.status, 200);
      assert.match(form.text, /Set your password/);
      assert.match(form.text, /new\.admin@alpha\.test/);
      const mismatch = await client.post(linkPath(link.url), { password: PASSWORD, confirm: `${PASSWORD}!` });
      assert.equal(mismatch.status, 400);
      assert.match(mismatch.text, /the two passwords differ/);
      const short = await client.post(linkPath(link.url), { password: 'short', confirm: 'short' });
      assert.equal(short.status, 400);
      assert.match(short.text, /at least 12 characters/);
      const set = await client.post(linkPath(link.url), { password: PASSWORD, confirm: PASSWORD });
      assert.equal(set.status, 303);
      assert.equal(set.location, '/console/login?done=password-set');
      // Single use.
      assert.equal((await client.get(linkPath(link.url))).status, 404);

      await client.get('/console/login');
      const signedIn = await client.post('/console/login', { email: 'New.Admin@alpha.test', password: PASSWORD });
      assert.equal(signedIn.status, 303);
      assert.equal(signedIn.location, '/console/screen');
      const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('sanctions_session='));
      assert.ok(cookie);
      assert.match(cookie, /HttpOnly/i);
      assert.match(cookie, /SameSite=Lax/i);
      assert.match(cookie, /Path=\/console/);
      assert.doesNotMatch(cookie, /Secure/i, 'plain HTTP without TRUST_PROXY');
      const screen = await client.get('/console/screen');
      assert.equal(screen.status, 200);
      assert.match(screen.text, /new\.admin@alpha\.test/);
    });

    it('lets an invitation link expire, and a newer link replace an older one', async () => {
      const first = await invite('alpha', 'late@alpha.test');
      const second = await invite('alpha', 'late@alpha.test');
      const client = new ConsoleClient(t.url);
      assert.equal((await client.get(linkPath(first.url))).status, 404, 'replaced by the newer link');
      assert.equal((await client.get(linkPath(second.url))).status, 200);
      clock.advance(72 * 60 * MINUTE + 1);
      assert.equal((await client.get(linkPath(second.url))).status, 404, 'expired after 72 h');
    });

    it('ends sessions when idle, at their absolute end, and on sign-out, on the server', async () => {
      const client = await member('alpha', 'idle@alpha.test');
      clock.advance(29 * MINUTE);
      assert.equal((await client.get('/console/screen')).status, 200);
      clock.advance(29 * MINUTE);
      assert.equal((await client.get('/console/screen')).status, 200, 'each use restarts the idle time');
      clock.advance(31 * MINUTE);
      const idle = await client.get('/console/screen');
      assert.equal(idle.status, 303);
      assert.equal(idle.location, '/console/login');

      const busy = await member('alpha', 'busy@alpha.test');
      for (let spent = 0; spent < 12 * 60 - 20; spent += 20) {
        clock.advance(20 * MINUTE);
        assert.equal((await busy.get('/console/screen')).status, 200);
      }
      clock.advance(20 * MINUTE);
      assert.equal((await busy.get('/console/screen')).status, 303, 'ended 12 h after sign-in');

      const leaving = await member('alpha', 'leaving@alpha.test');
      const kept = new ConsoleClient(t.url);
      for (const [k, v] of leaving.cookies) kept.cookies.set(k, v);
      await leaving.get('/console/screen');
      const out = await leaving.post('/console/logout', {});
      assert.equal(out.status, 303);
      const replay = await kept.get('/console/screen');
      assert.equal(replay.status, 303, 'the old cookie is worthless after sign-out');
    });

    it('refuses a change without the form token, with a wrong one, or from another origin', async () => {
      const admin = await member('alpha', 'csrf@alpha.test', 'admin');
      await admin.get('/console/settings/webhook');
      const target = { webhookUrl: 'http://127.0.0.1:9/attacker' };
      for (const attempt of [
        () => admin.post('/console/settings/webhook', target, { csrf: null }),
        () => admin.post('/console/settings/webhook', target, { csrf: 'x'.repeat(43) }),
      ]) {
        const refused = await attempt();
        assert.equal(refused.status, 403);
        assert.match(refused.text, /form token/);
      }
      const foreign = new ConsoleClient(t.url, { origin: 'http://evil.example' });
      for (const [k, v] of admin.cookies) foreign.cookies.set(k, v);
      foreign.formToken = admin.formToken;
      assert.equal((await foreign.post('/console/settings/webhook', target)).status, 403);
      const status = await t.ctx.services.webhooks.status({ ctx: t.ctx.operator, input: { org: 'alpha' } });
      assert.equal(status.url, null, 'nothing changed');
      // Sign-in too: its form token is bound to a cookie of its own.
      const stranger = new ConsoleClient(t.url);
      assert.equal(
        (await stranger.post('/console/login', { email: 'csrf@alpha.test', password: PASSWORD }, { csrf: null }))
          .status,
        403,
      );
      // With the token the same change goes through.
      const saved = await admin.post('/console/settings/webhook', target);
      assert.equal(saved.status, 200, saved.text);
      assert.match(saved.text, /The webhook URL is saved/);
    });

    it('gives each role what it may do: auditors read, analysts work, admins administer', async () => {
      const auditor = await member('alpha', 'auditor@alpha.test', 'auditor');
      const analyst = await member('alpha', 'analyst2@alpha.test', 'analyst');
      const keysBefore = (await t.ctx.services.tenants.listApiKeys({ ctx: t.ctx.operator, input: { org: 'alpha' } }))
        .length;
      for (const path of [
        '/console/settings/keys',
        '/console/settings/webhook',
        '/console/settings/users',
        '/console/alerts',
        '/console/monitors',
        '/console/lists',
        '/console/screenings',
      ]) {
        const page = await auditor.get(path);
        assert.equal(page.status, 200, path);
      }
      const keysPage = await auditor.get('/console/settings/keys');
      assert.doesNotMatch(keysPage.text, /Create API key/);
      const refused = await auditor.post('/console/settings/keys', {});
      assert.equal(refused.status, 403);
      assert.match(refused.text, /Not allowed/);
      assert.equal((await auditor.post('/console/screen', { name: 'Rustam Karimov' })).status, 403);
      assert.equal((await analyst.post('/console/settings/keys', {})).status, 403);
      const keysAfter = (await t.ctx.services.tenants.listApiKeys({ ctx: t.ctx.operator, input: { org: 'alpha' } }))
        .length;
      assert.equal(keysAfter, keysBefore);

      await analyst.get('/console/screen');
      const screened = await analyst.post('/console/screen', {
        name: 'Rustam Karimov',
        entityType: 'person',
        country: '',
        birthDate: '',
      });
      assert.equal(screened.status, 303, screened.text);
      assert.match(screened.location ?? '', /^\/console\/screenings\/scr_/);
      const detail = await analyst.get(screened.location ?? '');
      assert.match(detail.text, /Explanation:/);
      assert.match(detail.text, /Listings of this party/);
      const bad = await analyst.post('/console/screen', { name: 'Rustam Karimov', country: 'ZZ' });
      assert.equal(bad.status, 400);
      assert.match(bad.text, /country/);
      const withId = await analyst.post('/console/screen', {
        name: 'R. Karimov',
        identifierType: 'passport',
        identifier: 'AB 1234567',
      });
      assert.equal(withId.status, 303, withId.text);
      assert.match((await analyst.get(withId.location ?? '')).text, /passport AB ?1234567/);
      const badId = await analyst.post('/console/screen', {
        name: 'Some Ship',
        identifierType: 'imo',
        identifier: '123456',
      });
      assert.equal(badId.status, 400);
      assert.match(badId.text, /identifiers\[0\]\.value/);
      // A well-formed number whose check digit fails is screened; the page says so.
      const typo = await analyst.post('/console/screen', {
        name: 'Some Ship',
        identifierType: 'imo',
        identifier: '1234568',
      });
      assert.equal(typo.status, 303, typo.text);
      const warned = (await analyst.get(typo.location ?? '')).text;
      assert.match(warned, /Screened with a warning/);
      assert.match(warned, /CHECKSUM_MISMATCH/);
      assert.match(warned, /IMO check digit does not match/);
    });

    it("never shows an organization's data to another's users (404)", async () => {
      const viewer = await member('alpha', 'viewer@alpha.test', 'admin');
      const theirs = await t.request('POST', '/v1/screen', { key: b.key, body: { name: 'Rustam Karimov' } });
      assert.equal(theirs.status, 200);
      const page = await viewer.get(`/console/screenings/${theirs.body.data.screeningId as string}`);
      assert.equal(page.status, 404);
      assert.doesNotMatch(page.text, /Karimov/);
      await viewer.get('/console/settings/keys');
      const revoke = await viewer.post(`/console/settings/keys/${b.keyId}/revoke`, {});
      assert.equal(revoke.status, 404);
      assert.equal((await t.request('GET', '/v1/screenings', { key: b.key })).status, 200, "B's key still works");
      const list = await viewer.get('/console/screenings?search=Karimov');
      assert.doesNotMatch(list.text, new RegExp(theirs.body.data.screeningId as string));
      assert.ok(a.orgId !== b.orgId);
    });

    it('limits failed sign-ins per account and per address, and lifts the limit after the window', async () => {
      await member('alpha', 'target@alpha.test', 'analyst');
      const attacker = new ConsoleClient(t.url);
      for (let i = 0; i < 5; i++) {
        const wrong = await attacker.signIn('target@alpha.test', `wrong password ${i}`);
        assert.equal(wrong.status, 401);
        assert.match(wrong.text, /wrong email or password/);
      }
      const locked = await attacker.signIn('target@alpha.test', PASSWORD);
      assert.equal(locked.status, 429, 'the right password is refused while the account is limited');
      assert.match(locked.text, /too many failed sign-ins/);
      assert.ok(Number(locked.headers.get('retry-after')) > 0);
      assert.equal(attacker.cookies.has('sanctions_session'), false);

      // The address: 8 failures in the window (5 above, 3 more on other accounts), then even a new account is refused.
      for (let i = 0; i < 3; i++)
        assert.equal((await attacker.signIn(`nobody${i}@alpha.test`, 'whatever it is')).status, 401);
      assert.equal((await attacker.signIn('viewer@alpha.test', PASSWORD)).status, 429);

      clock.advance(16 * MINUTE);
      const again = await attacker.signIn('target@alpha.test', PASSWORD);
      assert.equal(again.status, 303, 'allowed again once the failures left the window');
    });
  });
}

describe('console cookies behind a TLS proxy', () => {
  it('marks the session cookie Secure when TRUST_PROXY is set and the request came over https', async () => {
    const t = await startTestApp('sqlite', { env: { TRUST_PROXY: 'true' } });
    try {
      await seedOrg(t.ctx, { slug: 'tls' });
      const link = await t.ctx.services.accounts.invite({
        ctx: t.ctx.operator,
        input: { org: 'tls', email: 'tls@tls.test' },
      });
      const client = new ConsoleClient(t.url, { 'x-forwarded-proto': 'https' });
      await client.get(linkPath(link.url));
      await client.post(linkPath(link.url), { password: PASSWORD, confirm: PASSWORD });
      const signedIn = await client.signIn('tls@tls.test', PASSWORD);
      assert.equal(signedIn.status, 303, signedIn.text);
      const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('sanctions_session='));
      assert.match(cookie ?? '', /; Secure/i);
    } finally {
      await t.close();
    }
  });
});
