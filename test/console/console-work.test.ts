import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * The console's work pages in Chromium (issue 16, second part): decisions on matches and their
 * suppression on rescreen, four-eyes approvals, batches (upload, progress, results), the audit
 * page (verify, export), and an auditor refused a decision. Screenshots go to test-output/console-work/.
 */

const SHOTS = resolve(REPO_ROOT, 'test-output/console-work');

const skip = skipWithoutBrowser;

describe('console work pages in Chromium (sqlite)', { skip }, () => {
  let t: TestApp;
  let org: SeededOrg;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  let clock: ManualClock;
  const url = (path: string) => t.url + path;
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  const signIn = async (email: string) => {
    if ((await page.getByRole('button', { name: 'Sign out' }).count()) > 0)
      await page.getByRole('button', { name: 'Sign out' }).click();
    await page.goto(url('/console/login'));
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Screen a name' }).waitFor();
  };

  const member = async (email: string, role: string) => {
    const link = await t.ctx.services.accounts.invite({ ctx: t.ctx.operator, input: { org: org.slug, email, role } });
    await page.goto(url(linkPath(link.url)));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your password is set').waitFor();
  };

  const screen = async (name: string, birthDate: string) => {
    await page.goto(url('/console/screen'));
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Birth date').fill(birthDate);
    await page.getByRole('button', { name: 'Screen' }).click();
    await page.getByRole('heading', { name: /Matches \(\d+\)/ }).waitFor();
  };

  before(async () => {
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    clock = new ManualClock('2026-03-02T09:00:00.000Z');
    t = await startTestApp('sqlite', { clock });
    const records = sampleRecords();
    await activateRecords(t.ctx, 'us_ofac', records.us_ofac);
    await activateRecords(t.ctx, 'un_csl', records.un_csl);
    org = await seedOrg(t.ctx, { slug: 'acme' });
    profile = mkdtempSync(join(tmpdir(), 'console-work-chromium-'));
    context = await launchBrowser(profile, { acceptDownloads: true });
    page = context.pages()[0] ?? (await context.newPage());
    await member('ana@acme.test', 'analyst');
    await member('boss@acme.test', 'admin');
    await member('aud@acme.test', 'auditor');
  });

  after(async () => {
    await context?.close();
    await t?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('marks a match a false positive, and the monitor rescreen after a list update is suppressed', async () => {
    await signIn('ana@acme.test');
    await screen('Ivan Sidorov', '1970-02-03');
    await page.getByRole('button', { name: 'Monitor' }).click();
    await page.getByText('The search is now monitored').waitFor();
    // A new list carries the name: the rescreen raises an alert with the match.
    await activateRecords(t.ctx, 'eu_csl', [
      person('eu_csl', 'EU-77', 'SIDOROV, Ivan Petrovich', { birthDates: [{ date: '1970-02-03' }], programs: ['RUS'] }),
    ]);
    await t.ctx.jobs.rescreen.job.runUntilIdle();
    await page.getByRole('link', { name: 'Alerts' }).click();
    const row = page.locator('tr', { hasText: 'Ivan Sidorov' });
    assert.match((await row.textContent()) ?? '', /Latest decision:\s*none/);
    // A false positive needs a reason: the service refuses it without one.
    await row.getByRole('button', { name: 'False positive' }).click();
    await page.getByText(/reason: is required for a false_positive/).waitFor();
    await page.goto(url('/console/alerts'));
    await row.getByLabel('Reason').selectOption('different_nationality');
    await row.getByLabel('Decision note').fill('Our customer is a Canadian national.');
    await row.getByRole('button', { name: 'False positive' }).click();
    await page.getByText('The decision is recorded.').waitFor();
    assert.match(
      (await row.textContent()) ?? '',
      /Latest decision:\s*False positive \(different nationality\),\s*effective, by ana@acme\.test/,
    );
    await shot('alert-decided');
    await row.getByRole('button', { name: 'Resolve' }).click();
    await page.getByText('The alert is resolved').waitFor();

    // The next list version (an unrelated change) rescreens the monitor: the cleared match stays silent.
    clock.advance(60 * 1000);
    await activateRecords(t.ctx, 'eu_csl', [
      person('eu_csl', 'EU-77', 'SIDOROV, Ivan Petrovich', { birthDates: [{ date: '1970-02-03' }], programs: ['RUS'] }),
      person('eu_csl', 'EU-78', 'Somebody Else Entirely'),
    ]);
    await t.ctx.jobs.rescreen.job.runUntilIdle();
    await page.getByRole('link', { name: 'Monitors' }).click();
    assert.match((await page.locator('tr', { hasText: 'Ivan Sidorov' }).textContent()) ?? '', /LOW/);
    await shot('monitor-suppressed');
    // Screening the same search again shows the match suppressed by that decision.
    await screen('Ivan Sidorov', '1970-02-03');
    const match = page.locator('section.match', { hasText: 'SIDOROV' });
    assert.match((await match.textContent()) ?? '', /Suppressed:\s*yes, by an earlier false positive \(dec_/);
    assert.match((await page.locator('dl.facts').first().textContent()) ?? '', /LOW/);
    await shot('screening-suppressed');
  });

  it('confirms a match on a screening, and a four-eyes false positive waits for another user', async () => {
    await t.ctx.services.tenants.updateOrganization({ ctx: t.ctx.operator, input: { org: org.slug, fourEyes: 'all' } });
    await screen('Karimov Rustam', '1961-04-12');
    const first = page.locator('section.match').first();
    await first.getByRole('button', { name: 'Confirm match' }).click();
    await page.getByText('The decision is recorded.').waitFor();
    assert.match((await first.textContent()) ?? '', /Latest decision:\s*Confirmed match,\s*effective/);
    // The decisions of one match are ordered by time: the next one is a second later.
    clock.advance(1000);
    await first.getByLabel('Reason').selectOption('other');
    await first.getByLabel('Decision note').fill('Different person: a namesake in another region.');
    await first.getByRole('button', { name: 'False positive' }).click();
    await page.getByText('waits for a second user').waitFor();
    assert.match((await first.textContent()) ?? '', /Latest decision:\s*False positive \(other\),\s*pending/);
    await shot('screening-pending');
    // Nobody approves their own decision: it is not in the decider's list.
    await page.getByRole('link', { name: 'Alerts' }).click();
    await page.getByText('Nothing waits for your approval.').waitFor();

    await signIn('boss@acme.test');
    await page.getByRole('link', { name: 'Alerts' }).click();
    const waiting = page
      .locator('tr', { hasText: 'ana@acme.test' })
      .filter({ has: page.getByRole('button', { name: /Approve/ }) });
    assert.equal(await waiting.count(), 1);
    await shot('approvals');
    await waiting.getByRole('button', { name: /Approve/ }).click();
    await page.getByText('The decision is approved.').waitFor();
    const { items } = await t.ctx.services.decisions.listAs({
      ctx: t.ctx.operator,
      input: { org: org.slug, page: 1, pageSize: 10, decision: 'false_positive', status: 'effective' },
    });
    assert.ok(items.some((d) => d.decidedBy === 'ana@acme.test' && d.approvedBy === 'boss@acme.test'));
  });

  it('uploads a batch file, shows its progress and downloads its results', async () => {
    const file = join(profile, 'customers.csv');
    writeFileSync(file, 'name,birthDate,externalId\nKarimov Rustam,1961-04-12,C-1\nJane Ordinary,,C-2\n,,C-3\n');
    await page.getByRole('link', { name: 'Batches' }).click();
    await page.getByLabel('File').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByText('The file is queued').waitFor();
    assert.match((await page.locator('dl.facts').textContent()) ?? '', /\/ 3\s*rows done/);
    await t.ctx.jobs.batches.job.runUntilIdle();
    await page.reload();
    const facts = (await page.locator('dl.facts').textContent()) ?? '';
    assert.match(facts, /3 \/ 3\s*rows done/);
    assert.match(facts, /Row errors\s*1/);
    assert.match(facts, /high 1/);
    await shot('batch');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download results (CSV)' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8');
    const lines = csv.trim().split('\n');
    assert.equal(lines.length, 4, csv);
    assert.match(lines[1] ?? '', /^2,C-1,Karimov Rustam,done,scr_\w+,high,/);
    assert.match(lines[3] ?? '', /^4,C-3,,error,/);
    await page.getByRole('link', { name: 'All batches' }).click();
    assert.match((await page.locator('tbody').textContent()) ?? '', /customers\.csv[\s\S]*3 \/ 3/);
    await shot('batches');
  });

  it('verifies the audit chain and exports it for an auditor', async () => {
    await signIn('aud@acme.test');
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('button', { name: 'Verify chain' }).click();
    await page.getByText(/The chain is intact: \d+ entries checked/).waitFor();
    await shot('audit');
    await page.getByLabel('From').fill('2026-03-01');
    await page.getByLabel('To').fill('2026-03-02');
    await page.getByLabel('Format').selectOption('jsonl');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export' }).click(),
    ]);
    const text = readFileSync(await download.path(), 'utf8');
    const events = text
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { event: string }).event);
    assert.ok(events.includes('decision.created'), events.join(', '));
    assert.ok(events.includes('decision.approved'), events.join(', '));
  });

  it('shows an auditor the decisions but refuses one (403 page, nothing recorded)', async () => {
    await page.goto(url('/console/screenings?search=Karimov'));
    const href = (await page.locator('tbody a').first().getAttribute('href')) ?? '';
    const id = href.split('/').pop() ?? '';
    assert.match(id, /^scr_/);
    await page.goto(url(`/console/screenings/${id}`));
    await page
      .getByText(/Latest decision:/)
      .first()
      .waitFor();
    assert.equal(await page.getByRole('button', { name: 'False positive' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Confirm match' }).count(), 0);
    const before = await t.ctx.services.decisions.listAs({
      ctx: t.ctx.operator,
      input: { org: org.slug, page: 1, pageSize: 1 },
    });
    const token = await page.locator('input[name="_csrf"]').first().inputValue();
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
        {
          action: `/console/screenings/${id}/decisions`,
          fields: { _csrf: token, entityId: 'us_ofac:1', decision: 'confirmed' } as Record<string, string>,
        },
      ),
    ]);
    assert.equal(response?.status(), 403);
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    const after = await t.ctx.services.decisions.listAs({
      ctx: t.ctx.operator,
      input: { org: org.slug, page: 1, pageSize: 1 },
    });
    assert.equal(after.total, before.total);
    await shot('auditor-forbidden');
  });
});
