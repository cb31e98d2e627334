import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { ManualClock } from '../../src/infra/clock.js';
import {
  REPO_ROOT,
  type SeededOrg,
  type TestApp,
  activateRecords,
  person,
  sampleRecords,
  seedOrg,
  startTestApp,
} from '../helpers/harness.js';
import { type InPage, PASSWORD, launchBrowser, skipWithoutBrowser } from '../helpers/browser.js';
import { linkPath } from '../helpers/console-client.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';

/**
 * The console in a real browser: Debian's chromium driven by playwright-core, headless, with a fresh
 * profile and everything that would reach the internet turned off. SQLite only (the HTTP-level
 * console tests run on both engines). Screenshots of every page go to test-output/console/.
 */

const SHOTS = resolve(REPO_ROOT, 'test-output/console');
/** The budget: the first load of any page under 150 KB of JavaScript. */
const JS_BUDGET = 150 * 1024;

const skip = skipWithoutBrowser;

describe('console in Chromium (sqlite)', { skip }, () => {
  let t: TestApp;
  let org: SeededOrg;
  let other: SeededOrg;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  let receiver: Receiver | undefined;
  let apiKey = '';
  let apiKeyPrefix = '';
  const jsSizes = new Map<string, number>();

  const url = (path: string) => t.url + path;

  /** Screenshot of the page as it is, and the JavaScript its load fetched. */
  const shot = async (name: string) => {
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    const js = await page.evaluate(() =>
      (globalThis as InPage).performance
        .getEntriesByType('resource')
        .filter((e: InPage) => e.initiatorType === 'script')
        .reduce((sum: number, e: InPage) => sum + Number(e.decodedBodySize), 0),
    );
    jsSizes.set(name, js);
  };

  const signIn = async (email: string, password: string) => {
    await page.goto(url('/console/login'));
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState();
  };

  const setPassword = async (link: string) => {
    await page.goto(url(linkPath(link)));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat password').fill(PASSWORD);
  };

  const invite = (email: string, role?: string) =>
    t.ctx.services.accounts.invite({ ctx: t.ctx.operator, input: { org: org.slug, email, ...(role ? { role } : {}) } });

  /** Posts a form built in the page, as a forged or hand-made request would be. */
  const postForm = async (action: string, fields: Record<string, string>) => {
    const [response] = await Promise.all([
      page.waitForNavigation(),
      page.evaluate(
        ({ action, fields }) => {
          const { document } = globalThis as InPage;
          const form = document.createElement('form');
          form.method = 'post';
          form.action = action;
          for (const [name, value] of Object.entries(fields)) {
            const input = document.createElement('input');
            input.type = 'hidden';
            input.name = name;
            input.value = value;
            form.append(input);
          }
          document.body.append(form);
          form.submit();
        },
        { action, fields },
      ),
    ]);
    return response;
  };

  const webhookUrl = async () =>
    (await t.ctx.services.webhooks.status({ ctx: t.ctx.operator, input: { org: org.slug } })).url;

  before(async () => {
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    t = await startTestApp('sqlite', { clock: new ManualClock('2026-03-02T09:00:00.000Z') });
    const records = sampleRecords();
    await activateRecords(t.ctx, 'us_ofac', records.us_ofac);
    await activateRecords(t.ctx, 'un_csl', records.un_csl);
    org = await seedOrg(t.ctx, { slug: 'acme' });
    other = await seedOrg(t.ctx, { slug: 'globex' });
    profile = mkdtempSync(join(tmpdir(), 'console-chromium-'));
    context = await launchBrowser(profile);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
    page = context.pages()[0] ?? (await context.newPage());
  });

  after(async () => {
    await context?.close();
    await receiver?.close();
    await t?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('sets a password from the invitation link and signs in', async () => {
    const link = await invite('admin@acme.test', 'admin');
    await setPassword(link.url);
    await shot('invitation');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your password is set').waitFor();
    await page.getByLabel('Email').fill('admin@acme.test');
    await shot('sign-in');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Screen a name' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/console/screen');
    const cookie = (await context.cookies()).find((c) => c.name === 'sanctions_session');
    assert.ok(cookie?.httpOnly);
    assert.equal(cookie?.sameSite, 'Lax');
  });

  it('creates an API key, shown once with a copy button, that works on the API', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Create API key' }).click();
    apiKey = (await page.locator('#new-key').textContent())?.trim() ?? '';
    assert.match(apiKey, /^sk_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => (globalThis as InPage).navigator.clipboard.readText()), apiKey);
    await shot('settings-keys');
    const answer = await fetch(url('/v1/screenings'), { headers: { 'x-api-key': apiKey } });
    assert.equal(answer.status, 200);
    const keys = await t.ctx.services.tenants.listApiKeys({ ctx: t.ctx.operator, input: { org: org.slug } });
    const mine = keys.find((k) => k.user === 'admin@acme.test' && k.status === 'active');
    assert.ok(mine && apiKey.startsWith(mine.prefix));
    apiKeyPrefix = mine.prefix;
    // Shown once: the list shows the prefix only.
    await page.goto(url('/console/settings/keys'));
    assert.equal(await page.getByText(apiKey).count(), 0);
  });

  it('generates a webhook secret, saves the URL and sends a signed test', async () => {
    await page.getByRole('link', { name: 'Webhook' }).click();
    await page.getByRole('button', { name: 'Generate secret' }).click();
    const secret = (await page.locator('#new-secret').textContent())?.trim() ?? '';
    assert.match(secret, /^[0-9a-f]{64}$/);
    receiver = await startReceiver(secret);
    await page.getByLabel('Webhook URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The webhook URL is saved').waitFor();
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Test delivered: the receiver answered HTTP 200').waitFor();
    assert.equal(receiver.received.length, 1);
    assert.equal(receiver.received[0]?.signatureValid, true);
    assert.equal(receiver.received[0]?.headers['x-service-test'], 'true');
    const log = page.locator('table').last();
    assert.match((await log.textContent()) ?? '', /alert\.created \(test\)[\s\S]*HTTP 200/);
    await shot('settings-webhook');
  });

  it("screens a listed name and shows each match explained, with the party's listings grouped", async () => {
    await page.getByRole('link', { name: 'Screen' }).first().click();
    await page.getByLabel('Name').fill('Karimov Rustam');
    await page.getByLabel('Type', { exact: true }).selectOption('person');
    await page.getByLabel('Country').fill('UZ');
    await page.getByLabel('Birth date').fill('1961-04-12');
    await shot('screen');
    await page.getByRole('button', { name: 'Screen' }).click();
    await page.getByRole('heading', { name: /Matches \(\d+\)/ }).waitFor();
    assert.match(new URL(page.url()).pathname, /^\/console\/screenings\/scr_/);
    const first = page.locator('section.match').first();
    const text = (await first.textContent()) ?? '';
    assert.match(text, /Explanation:\s*Matched/);
    assert.match(text, /KARIMOV|Karimov/);
    const listings = first.locator('table tbody tr');
    assert.equal(await listings.count(), 2, 'the OFAC and UN rows of the party in one match');
    assert.match((await page.locator('dl.facts').first().textContent()) ?? '', /HIGH/);
    assert.match((await page.locator('table').last().textContent()) ?? '', /us_ofac[\s\S]*un_csl|un_csl[\s\S]*us_ofac/);
    await shot('screening');
  });

  it('monitors a search, and resolves the alert a list update raises', async () => {
    await page.getByRole('link', { name: 'Screen' }).first().click();
    await page.getByLabel('Name').fill('Ivan Sidorov');
    await page.getByLabel('Birth date').fill('1970-02-03');
    await page.getByRole('button', { name: 'Screen' }).click();
    await page.getByRole('button', { name: 'Monitor' }).click();
    await page.getByText('The search is now monitored').waitFor();
    await activateRecords(t.ctx, 'eu_csl', [
      person('eu_csl', 'EU-77', 'SIDOROV, Ivan Petrovich', { birthDates: [{ date: '1970-02-03' }], programs: ['RUS'] }),
    ]);
    await t.ctx.jobs.rescreen.job.runUntilIdle();

    await page.getByRole('link', { name: 'Monitors' }).click();
    await shot('monitors');
    await page.getByRole('link', { name: 'Alerts' }).click();
    const row = page.locator('tr', { hasText: 'Ivan Sidorov' });
    assert.match((await row.textContent()) ?? '', /LOW 0[\s\S]*HIGH/);
    await shot('alerts');
    await row.getByLabel('Note', { exact: true }).fill('Same person as the EU listing; escalated to compliance.');
    await row.getByRole('button', { name: 'Resolve' }).click();
    await page.getByText('The alert is resolved').waitFor();
    assert.match((await page.locator('body').textContent()) ?? '', /No open alerts/);
    const [resolved] = await t.ctx.services.alerts.listAlerts({ ctx: t.ctx.operator, input: { org: org.slug } });
    assert.ok(resolved?.resolvedAt);
    assert.equal(resolved?.resolvedBy, 'admin@acme.test');
    assert.equal(resolved?.note, 'Same person as the EU listing; escalated to compliance.');
  });

  it('shows screenings with filters, the lists, and users', async () => {
    await page.goto(url('/console/screenings?riskLevel=high'));
    assert.equal(await page.locator('tbody tr').count(), 1);
    await page.getByLabel('Risk level').selectOption('');
    await page.getByRole('button', { name: 'Filter' }).click();
    assert.equal(await page.locator('tbody tr').count(), 2);
    await shot('screenings');
    await page.getByRole('link', { name: 'Lists' }).click();
    assert.match((await page.locator('tbody').textContent()) ?? '', /us_ofac[\s\S]*3/);
    await shot('lists');
    await page.goto(url('/console/settings/users'));
    await shot('settings-users');
  });

  it('refuses a form posted without the CSRF token, changing nothing', async () => {
    const before = await webhookUrl();
    const response = await postForm('/console/settings/webhook', { webhookUrl: 'http://127.0.0.1:9/elsewhere' });
    assert.equal(response?.status(), 403);
    await page.getByText(/form token/).waitFor();
    assert.equal(await webhookUrl(), before);
  });

  it("answers 404 when a user of one organization opens another's screening", async () => {
    const theirs = await fetch(url('/v1/screen'), {
      method: 'POST',
      headers: { 'x-api-key': other.key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rustam Karimov' }),
    });
    const id = ((await theirs.json()) as { data: { screeningId: string } }).data.screeningId;
    const response = await page.goto(url(`/console/screenings/${id}`));
    assert.equal(response?.status(), 404);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    assert.equal(await page.getByText('Rustam Karimov').count(), 0);
    await shot('not-found');
  });

  it('revokes the key, and the API answers 401', async () => {
    await page.goto(url('/console/settings/keys'));
    await page.locator('tr', { hasText: apiKeyPrefix }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('The key is revoked').waitFor();
    const answer = await fetch(url('/v1/screenings'), { headers: { 'x-api-key': apiKey } });
    assert.equal(answer.status, 401);
  });

  it('ends the session on the server when signing out', async () => {
    const cookie = (await context.cookies()).find((c) => c.name === 'sanctions_session');
    assert.ok(cookie);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out').waitFor();
    const replay = await fetch(url('/console/screen'), {
      redirect: 'manual',
      headers: { cookie: `sanctions_session=${cookie.value}` },
    });
    assert.equal(replay.status, 303);
    assert.equal(replay.headers.get('location'), '/console/login');
  });

  it('lets an auditor read the settings but not change them (403 page, nothing changed)', async () => {
    const link = await invite('auditor@acme.test', 'auditor');
    await setPassword(link.url);
    await page.getByRole('button', { name: 'Save' }).click();
    await signIn('auditor@acme.test', PASSWORD);
    await page.goto(url('/console/settings/webhook'));
    assert.equal(await page.getByRole('button', { name: 'Save' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Send test' }).count(), 0);
    const before = await webhookUrl();
    const token = await page.locator('input[name="_csrf"]').first().inputValue();
    const response = await postForm('/console/settings/webhook', { _csrf: token, webhookUrl: 'http://127.0.0.1:9/x' });
    assert.equal(response?.status(), 403);
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    await shot('forbidden');
    assert.equal(await webhookUrl(), before);
    await page.getByRole('button', { name: 'Sign out' }).click();
  });

  it('limits sign-in after five wrong passwords', async () => {
    const link = await invite('clerk@acme.test', 'analyst');
    await setPassword(link.url);
    await page.getByRole('button', { name: 'Save' }).click();
    for (let i = 1; i <= 5; i++) {
      await signIn('clerk@acme.test', `not the password ${i}`);
      await page.getByText('wrong email or password').waitFor();
    }
    await signIn('clerk@acme.test', PASSWORD);
    await page.getByText(/too many failed sign-ins/).waitFor();
    assert.equal(new URL(page.url()).pathname, '/console/login');
    assert.equal(
      (await context.cookies()).some((c) => c.name === 'sanctions_session'),
      false,
    );
    await shot('sign-in-limited');
  });

  it('loads well under 150 KB of JavaScript on every page', () => {
    assert.ok(jsSizes.size >= 12, `screenshots taken: ${[...jsSizes.keys()].join(', ')}`);
    for (const [name, bytes] of jsSizes) assert.ok(bytes < JS_BUDGET, `${name}: ${bytes} bytes of JavaScript`);
  });
});
