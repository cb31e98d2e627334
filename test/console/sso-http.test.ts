import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AuditStore } from '../../src/audit/audit-store.js';
import { PASSWORD } from '../helpers/browser.js';
import { cli } from '../helpers/cli.js';
import { ConsoleClient, linkPath } from '../helpers/console-client.js';
import { ENGINES, type TestApp, startTestApp } from '../helpers/harness.js';
import { type Forger, type Forgery, startForger } from '../helpers/oidc.js';

/**
 * Single sign-on over HTTP (issue 33): the refusals a real provider cannot be made to produce (an ID
 * token for another audience, one whose signature does not verify) against a provider whose token
 * endpoint answers with tokens this test signs; answers from another browser or for no sign-in; the
 * command line (`sanctions orgs sso`), the sealed client secret, password sign-in turned off, the
 * Settings page's permissions and the audit entries of setting changes.
 */

const SECRET_KEY = 'ab'.repeat(32);
const CLIENT_SECRET = 'forger-client-secret-value';

for (const { engine, skip } of ENGINES) {
  describe(`single sign-on over HTTP (${engine})`, { skip }, () => {
    let t: TestApp;
    let forger: Forger;
    const org = `sso-${engine}`;

    before(async () => {
      t = await startTestApp(engine, { env: { CONSOLE_SSO_ALLOW_HTTP: 'true', SECRET_KEY } });
      forger = await startForger('client-f');
      await t.ctx.services.tenants.createOrganization({
        ctx: t.ctx.operator,
        input: { slug: org, name: 'Bank', tier: 'professional' },
      });
    });
    after(async () => {
      await forger?.close();
      await t?.close();
    });

    /** Starts a sign-in in a browser-like client; the state and nonce it sent to the provider. */
    const start = async (client: ConsoleClient) => {
      const page = await client.get(`/console/sso/start?org=${org}`);
      assert.equal(page.status, 200, page.text);
      const target = /content="0;url=([^"]+)"/.exec(page.text)?.[1]?.replace(/&amp;/g, '&');
      assert.ok(target, 'the start page names the provider address');
      const address = new URL(target);
      assert.equal(address.origin + address.pathname, `${forger.issuer}/auth`);
      return { state: address.searchParams.get('state')!, nonce: address.searchParams.get('nonce')! };
    };

    const answer = async (forgery: Forgery, options: { otherBrowser?: boolean; state?: string } = {}) => {
      const client = new ConsoleClient(t.url);
      const { state, nonce } = await start(client);
      forger.next(nonce, forgery);
      const back = options.otherBrowser ? new ConsoleClient(t.url) : client;
      const page = await back.get(`/console/sso/callback?code=forged-code&state=${options.state ?? state}`);
      return { page, client: back };
    };

    it('sets single sign-on from the command line, the client secret sealed and never shown', async () => {
      const bad = await cli(t.env, ['orgs', 'sso', 'set', '--org', org, '--issuer', 'ftp://idp.example', '--json']);
      assert.equal(bad.code, 2);
      assert.match(bad.json.error.message, /^issuer: /);
      const missing = await cli(t.env, ['orgs', 'sso', 'set', '--org', org, '--issuer', forger.issuer, '--json']);
      assert.equal(missing.code, 2);
      assert.match(missing.json.error.message, /^client-id: is required/);
      const set = await cli(t.env, [
        'orgs',
        'sso',
        'set',
        '--org',
        org,
        '--issuer',
        forger.issuer,
        '--client-id',
        'client-f',
        '--client-secret',
        CLIENT_SECRET,
        '--domains',
        'Bank.example, branch.example',
        '--role-claim',
        'groups',
        '--admin-group',
        'admins',
        '--analyst-group',
        'analysts',
        '--json',
      ]);
      assert.equal(set.code, 0, set.stderr + set.stdout);
      assert.deepEqual(set.json.domains, ['bank.example', 'branch.example']);
      assert.equal(set.json.clientSecretSet, true);
      assert.equal(set.json.passwordLogin, true);
      assert.match(set.json.redirectUri, /\/console\/sso\/callback$/);
      const shown = await cli(t.env, ['orgs', 'sso', 'show', '--org', org, '--json']);
      assert.equal(shown.json.analystGroup, 'analysts');
      assert.ok(!shown.stdout.includes(CLIENT_SECRET) && !set.stdout.includes(CLIENT_SECRET));
      const row = await t.ctx.database.db.selectFrom('org_sso').select('client_secret').executeTakeFirstOrThrow();
      assert.match(row.client_secret, /^enc:v1:/, 'sealed under SECRET_KEY');
      assert.ok(!row.client_secret.includes(CLIENT_SECRET));
    });

    it('signs in with a token the provider signed for this client (the forger works)', async () => {
      const { page, client } = await answer({ claims: {} });
      assert.equal(page.status, 303, page.text);
      assert.equal(page.location, '/console/screen');
      const screen = await client.get('/console/screen');
      assert.match(screen.text, /analyst@bank\.example · Bank · role: analyst/);
    });

    it('refuses an ID token issued for another audience, with a page that says why', async () => {
      const { page } = await answer({ claims: { aud: 'client-of-another-org' } });
      assert.equal(page.status, 403);
      assert.match(page.text, /Sign-in refused/);
      assert.match(page.text, /issued for another application \(its audience is not this organization/);
      assert.match(page.text, /data-reason="wrong_audience"/);
    });

    it('refuses an ID token whose signature does not verify', async () => {
      const { page } = await answer({ claims: { groups: ['admins'] }, wrongKey: true });
      assert.equal(page.status, 403);
      assert.match(page.text, /signature does not verify against the identity provider/);
      assert.match(page.text, /data-reason="bad_signature"/);
    });

    it('refuses an answer brought to another browser, and one for no sign-in', async () => {
      const other = await answer({ claims: {} }, { otherBrowser: true });
      assert.equal(other.page.status, 403);
      assert.match(other.page.text, /started in another browser/);
      const unknown = await answer({ claims: {} }, { state: 'made-up-state' });
      assert.equal(unknown.page.status, 403);
      assert.match(unknown.page.text, /belongs to no sign-in started here/);
    });

    it('password sign-in can be turned off: it is refused and password sessions end', async () => {
      const invitation = await t.ctx.services.accounts.invite({
        ctx: t.ctx.operator,
        input: { org, email: 'keeper@bank.example', role: 'admin' },
      });
      const client = new ConsoleClient(t.url);
      await client.get(linkPath(invitation.url));
      await client.post(linkPath(invitation.url), { password: PASSWORD, confirm: PASSWORD });
      const signedIn = await client.signIn('keeper@bank.example', PASSWORD);
      assert.equal(signedIn.location, '/console/screen');
      // The admin sees the settings; an analyst (signed in above through the provider) may not change them.
      const settings = await client.get('/console/settings/sso');
      assert.match(settings.text, /Redirect URI to register/);
      assert.match(settings.text, /client-f/);
      assert.ok(!settings.text.includes(CLIENT_SECRET));

      const off = await cli(t.env, ['orgs', 'sso', 'set', '--org', org, '--password-login', 'off', '--json']);
      assert.equal(off.code, 0, off.stderr + off.stdout);
      assert.equal(off.json.passwordLogin, false);
      const ended = await client.get('/console/screen');
      assert.equal(ended.status, 303, 'the password session ended');
      const refused = await new ConsoleClient(t.url).signIn('keeper@bank.example', PASSWORD);
      assert.equal(refused.status, 401);
      assert.match(refused.text, /signs in through its identity provider/);
    });

    it('the Settings page saves for an admin only', async () => {
      const { client: analyst } = await answer({ claims: {} });
      const page = await analyst.get('/console/settings/sso');
      assert.equal(page.status, 200);
      assert.match(page.text, /can read this page but not change anything/);
      const post = await analyst.post('/console/settings/sso', {
        issuer: forger.issuer,
        clientId: 'x',
        domains: 'x.example',
      });
      assert.equal(post.status, 403);
      assert.match(post.text, /your role \(analyst\) may not change settings/);
      const { client: admin } = await answer({ claims: { email: 'boss@bank.example', groups: ['admins'] } });
      await admin.get('/console/settings/sso');
      const saved = await admin.post('/console/settings/sso', {
        issuer: forger.issuer,
        clientId: 'client-f',
        clientSecret: '',
        domains: 'bank.example',
        roleClaim: 'groups',
        adminGroup: 'admins',
        analystGroup: 'analysts',
        auditorGroup: 'auditors',
        scopes: 'openid email profile',
      });
      assert.equal(saved.status, 303, saved.text);
      const bad = await admin.post('/console/settings/sso', {
        issuer: 'not a url',
        clientId: 'client-f',
        domains: 'bank.example',
      });
      assert.equal(bad.status, 400);
      assert.match(bad.text, /issuer: is not a URL/);
      const shown = await t.ctx.services.sso.show({ ctx: t.ctx.operator, input: { org } });
      assert.equal(shown?.auditorGroup, 'auditors');
      assert.equal(shown?.passwordLogin, false, 'the unticked box keeps password sign-in off');
    });

    it('every settings change is an audit entry naming what changed, never the secret', async () => {
      const orgId = (await t.ctx.services.tenants.listOrganizations({ ctx: t.ctx.operator })).find(
        (o) => o.slug === org,
      )!.id;
      const rows = (await new AuditStore(t.ctx.database.db).page(orgId, 0, 200)).filter((r) =>
        /^sso\.(configured|updated)$/.test(r.event),
      );
      assert.deepEqual(
        rows.map((r) => [r.event, r.actor]),
        [
          ['sso.configured', 'operator'],
          ['sso.updated', 'operator'],
          ['sso.updated', rows[2]?.actor],
        ],
      );
      assert.match(rows[2]!.actor, /^usr_/, 'the console change names the admin');
      const first = JSON.parse(rows[0]!.data) as Record<string, unknown>;
      assert.equal(first.client_secret, '(set)');
      assert.equal((JSON.parse(rows[1]!.data) as Record<string, unknown>).password_login, 0);
      assert.equal((JSON.parse(rows[1]!.data) as Record<string, unknown>).passwordSessionsEnded, 1);
      assert.ok(rows.every((r) => !r.data.includes(CLIENT_SECRET)));
    });

    it('sanctions secrets rotate re-seals the client secret under the new key', async () => {
      const NEW_KEY = 'cd'.repeat(32);
      const rotated = await cli(
        { ...t.env, env: { ...t.env.env, SECRET_KEY: NEW_KEY, SECRET_KEY_PREVIOUS: SECRET_KEY } },
        ['secrets', 'rotate', '--json'],
      );
      assert.equal(rotated.code, 0, rotated.stderr + rotated.stdout);
      assert.deepEqual(rotated.json.failed, []);
      assert.ok(rotated.json.rotated >= 1);
      const row = await t.ctx.database.db.selectFrom('org_sso').select('client_secret').executeTakeFirstOrThrow();
      const { SecretBox } = await import('../../src/infra/secrets.js');
      const box = new SecretBox({ secretKey: NEW_KEY, previousSecretKeys: [] });
      assert.equal(SecretBox.keyIdOf(row.client_secret), box.currentKeyId);
      assert.equal(box.open(row.client_secret), CLIENT_SECRET);
    });
  });
}
