import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { AuditStore } from '../../src/audit/audit-store.js';
import { launchBrowser, skipWithoutBrowser } from '../helpers/browser.js';
import { ENGINES, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { startProvider, type TestProvider } from '../helpers/oidc.js';

/**
 * Single sign-on in Chromium against a real OpenID Connect provider (oidc-provider on loopback, with
 * its own signing key): an analyst signs in and lands with the mapped role; a group change changes the
 * role at the next sign-in; a replayed answer, an email outside the allowed domains and a removed
 * group are refused with a page that says why, the last one ending the sessions the user had; another
 * organization's client and mapping are never used for this one.
 */

for (const { engine, skip } of ENGINES) {
  describe(`single sign-on in Chromium (${engine})`, { skip: skip || skipWithoutBrowser }, () => {
    let t: TestApp;
    let idp: TestProvider;
    let context: BrowserContext;
    let page: Page;
    let profile: string;
    const orgA = `bank-${engine}`;
    const orgB = `other-${engine}`;
    const orgC = `plain-${engine}`;
    /** Every callback the browser was sent to, and every authorization request, in order. */
    const callbacks: string[] = [];
    const authorizations: URL[] = [];

    const url = (path: string) => t.url + path;

    before(async () => {
      t = await startTestApp(engine, { env: { CONSOLE_SSO_ALLOW_HTTP: 'true' } });
      const redirectUri = `${t.url}/console/sso/callback`;
      idp = await startProvider(
        [
          { clientId: 'client-a', clientSecret: 'secret-a-0123456789', redirectUri },
          { clientId: 'client-b', clientSecret: 'secret-b-0123456789', redirectUri },
        ],
        { ana: { email: 'ana@bank.example', groups: ['staff', 'sanctions-analysts'] } },
      );
      const { tenants, sso } = t.ctx.services;
      for (const slug of [orgA, orgB, orgC])
        await tenants.createOrganization({
          ctx: t.ctx.operator,
          input: { slug, name: `Org ${slug}`, tier: 'professional' },
        });
      await sso.configure({
        ctx: t.ctx.operator,
        actor: 'operator',
        input: {
          org: orgA,
          issuer: idp.issuer,
          clientId: 'client-a',
          clientSecret: 'secret-a-0123456789',
          domains: 'bank.example',
          roleClaim: 'groups',
          adminGroup: 'sanctions-admins',
          analystGroup: 'sanctions-analysts',
          auditorGroup: 'auditors',
        },
      });
      // Organization B trusts the same provider through its own client, with other groups and domains.
      await sso.configure({
        ctx: t.ctx.operator,
        actor: 'operator',
        input: {
          org: orgB,
          issuer: idp.issuer,
          clientId: 'client-b',
          clientSecret: 'secret-b-0123456789',
          domains: 'bank.example',
          analystGroup: 'b-analysts',
        },
      });
      await seedOrg(t.ctx, { slug: `${orgC}-seed` });
      profile = mkdtempSync(join(tmpdir(), 'sso-chromium-'));
      context = await launchBrowser(profile);
      page = context.pages()[0] ?? (await context.newPage());
      page.on('request', (request) => {
        const address = new URL(request.url());
        if (address.pathname === '/console/sso/callback') callbacks.push(request.url());
        if (address.origin === idp.issuer && address.pathname === '/auth') authorizations.push(address);
      });
    });

    after(async () => {
      await context?.close();
      if (profile) rmSync(profile, { recursive: true, force: true });
      await idp?.close();
      await t?.close();
    });

    /** Back at the console from the provider (the page that sends the browser there is not it). */
    const landed = (u: URL) => u.pathname.startsWith('/console/') && u.pathname !== '/console/sso/start';

    /**
     * Through the provider, from the sign-in page's form, or (signed in already, when the sign-in page
     * goes straight to the console) from the start address an organization would bookmark; logs in at
     * the provider when it asks.
     */
    const ssoSignIn = async (org: string, from: 'form' | 'link' = 'link') => {
      if (from === 'form') {
        await page.goto(url('/console/login'));
        await page.getByLabel('Organization').fill(org);
        await page.getByRole('button', { name: 'Continue with single sign-on' }).click();
      } else await page.goto(url(`/console/sso/start?org=${encodeURIComponent(org)}`));
      await page.waitForURL((u) => u.pathname.startsWith('/interaction/') || landed(u), { waitUntil: 'load' });
      if (new URL(page.url()).pathname.startsWith('/interaction/')) {
        await page.locator('input[name=login]').fill('ana');
        await page.locator('input[name=password]').fill('any password: the development login does not check it');
        await page.locator('button[type=submit]').click();
        await page.waitForURL(landed, { waitUntil: 'load' });
      }
    };

    const refusal = async () => (await page.locator('[role=alert]').innerText()).replace(/\s+/g, ' ');
    const members = (org: string) => t.ctx.services.tenants.listUsers({ ctx: t.ctx.operator, input: { org } });
    const cookie = async () =>
      (await context.cookies(url('/console/screen'))).find((c) => c.name === 'sanctions_session')?.value;

    it('signs the analyst in through the provider, with the role of their group', async () => {
      await ssoSignIn(orgA, 'form');
      assert.equal(new URL(page.url()).pathname, '/console/screen');
      assert.match(await page.locator('.who').innerText(), /ana@bank\.example · Org bank-\w+ · role: analyst/);
      const auth = authorizations.at(-1)!;
      assert.equal(auth.searchParams.get('client_id'), 'client-a', "organization A's own client");
      assert.equal(auth.searchParams.get('code_challenge_method'), 'S256');
      assert.ok(auth.searchParams.get('state') && auth.searchParams.get('nonce'));
      const list = await members(orgA);
      assert.deepEqual(
        list.map((m) => [m.email, m.role]),
        [['ana@bank.example', 'analyst']],
      );
      assert.equal((await members(orgB)).length, 0, 'signing in to A makes no membership in B');
    });

    it('refuses a replayed answer (the same state twice) with a page that says so', async () => {
      const used = callbacks.at(-1)!;
      const response = await page.goto(used);
      assert.equal(response?.status(), 403);
      assert.equal(await page.title(), 'Sign-in refused · Sanctions screening');
      assert.match(await refusal(), /already used \(replayed state\)/);
    });

    it('changes the role at the next sign-in when the groups change', async () => {
      idp.accounts.get('ana')!.groups = ['sanctions-admins', 'auditors'];
      await ssoSignIn(orgA);
      assert.equal(new URL(page.url()).pathname, '/console/screen');
      assert.match(await page.locator('.who').innerText(), /role: admin/);
      assert.equal((await members(orgA))[0]?.role, 'admin');
    });

    it("uses another organization's own client and groups, never this one's", async () => {
      const sessionA = await cookie();
      assert.ok(sessionA);
      // Signed in at the provider already: B's client asks nothing, but ana is in none of B's groups.
      await ssoSignIn(orgB);
      assert.equal(authorizations.at(-1)!.searchParams.get('client_id'), 'client-b');
      assert.match(await refusal(), /none of your groups in the "groups" claim gives a role/);
      assert.equal((await members(orgB)).length, 0);
      assert.equal((await members(orgA))[0]?.role, 'admin', 'A keeps its member');
      assert.equal(await cookie(), sessionA, 'the session in A is untouched');
      await page.goto(url('/console/screen'));
      assert.match(await page.locator('.who').innerText(), /role: admin/);
      // An organization without single sign-on is not reached through anyone else's.
      const response = await page.goto(url(`/console/sso/start?org=${orgC}-seed`));
      assert.equal(response?.status(), 404);
      assert.match(await refusal(), /no single sign-on is set up for organization/);
    });

    it('refuses an email outside the allowed domains', async () => {
      idp.accounts.get('ana')!.email = 'ana@elsewhere.example';
      try {
        await ssoSignIn(orgA);
        assert.match(
          await refusal(),
          /the email address ana@elsewhere\.example is outside the domains this organization accepts \(bank\.example\)/,
        );
      } finally {
        idp.accounts.get('ana')!.email = 'ana@bank.example';
      }
    });

    it('a removed group ends access and the sessions the user had', async () => {
      const before = await cookie();
      assert.ok(before);
      idp.accounts.get('ana')!.groups = ['staff'];
      await ssoSignIn(orgA);
      assert.match(await refusal(), /none of your groups .* gives a role in this organization/);
      assert.equal((await members(orgA)).length, 0, 'the membership is removed');
      // The session of the earlier sign-in no longer opens anything.
      const response = await fetch(url('/console/screen'), {
        redirect: 'manual',
        headers: { cookie: `sanctions_session=${before}` },
      });
      assert.equal(response.status, 303);
      assert.equal(response.headers.get('location'), '/console/login');
    });

    it('records every sign-in and refusal in the audit chain', async () => {
      const orgId = (await t.ctx.services.tenants.listOrganizations({ ctx: t.ctx.operator })).find(
        (o) => o.slug === orgA,
      )!.id;
      const rows = await new AuditStore(t.ctx.database.db).page(orgId, 0, 100);
      const sso = rows.filter((r) => r.event.startsWith('sso.'));
      assert.deepEqual(
        sso.map((r) => [
          r.event,
          (JSON.parse(r.data) as { reason?: string; role?: string }).reason ?? JSON.parse(r.data).role,
        ]),
        [
          ['sso.configured', undefined],
          ['sso.signed_in', 'analyst'],
          ['sso.refused', 'replayed_state'],
          ['sso.signed_in', 'admin'],
          ['sso.refused', 'domain_not_allowed'],
          ['sso.refused', 'no_role'],
        ],
      );
      const report = await t.ctx.services.audit.verify({ ctx: t.ctx.operator, input: { org: orgA } });
      assert.equal(report.ok, true, JSON.stringify(report.broken));
    });
  });
}
