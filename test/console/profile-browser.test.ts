import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { ManualClock } from '../../src/infra/clock.js';
import { type SeededOrg, type TestApp, activateRecords, person, seedOrg, startTestApp } from '../helpers/harness.js';
import { PASSWORD, launchBrowser, skipWithoutBrowser } from '../helpers/browser.js';
import { linkPath } from '../helpers/console-client.js';

/**
 * Settings > Screening profile in a real browser (issue 29, "Done when"): an admin sees each knob
 * with its meaning, drafts "EU and UN only, medium from 70", runs the backtest, reads how many
 * alerts it removes and which confirmed match it would lose, is refused activation without a
 * reason, activates with one, and the next screening's record names the new profile version.
 */
describe('screening profile in Chromium (sqlite)', { skip: skipWithoutBrowser }, () => {
  let t: TestApp;
  let org: SeededOrg;
  let context: BrowserContext;
  let page: Page;
  let folder: string;
  const clock = new ManualClock('2026-06-01T09:00:00.000Z');

  const screen = async (name: string) => {
    clock.advance(60_000);
    const res = await fetch(`${t.url}/v1/screen`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': org.key },
      body: JSON.stringify({ name }),
    });
    assert.equal(res.status, 200);
    return ((await res.json()) as { data: { screeningId: string; entityId: string | null; riskLevel: string } }).data;
  };

  before(async () => {
    t = await startTestApp('sqlite', { clock });
    await activateRecords(t.ctx, 'us_ofac', [person('us_ofac', 'OF-1', 'Gennady Pavlovich ZOLOTAREV')]);
    await activateRecords(t.ctx, 'eu_csl', [person('eu_csl', 'EU-1', 'Aleksandr Viktorovich MOROZOV')]);
    await activateRecords(t.ctx, 'un_csl', [person('un_csl', 'UN-1', 'Abdul Rahman AL-HAMADI')]);
    org = await seedOrg(t.ctx, { slug: 'acme' });
    folder = mkdtempSync(join(tmpdir(), 'profile-chromium-'));
    context = await launchBrowser(folder);
    page = context.pages()[0] ?? (await context.newPage());
  });

  after(async () => {
    await context?.close();
    await t?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('drafts, backtests, is refused without a reason, activates with one', async () => {
    // The organization's history: an OFAC-only party an analyst confirmed, and an EU party.
    const ofac = await screen('Gennady Pavlovich Zolotarev');
    assert.equal(ofac.entityId, 'us_ofac:OF-1');
    const eu = await screen('Aleksandr Viktorovich Morozov');
    assert.equal(eu.entityId, 'eu_csl:EU-1');
    const dec = await fetch(`${t.url}/v1/screenings/${ofac.screeningId}/decisions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': org.key },
      body: JSON.stringify({ entityId: 'us_ofac:OF-1', decision: 'confirmed' }),
    });
    assert.equal(dec.status, 201);

    const link = await t.ctx.services.accounts.invite({
      ctx: t.ctx.operator,
      input: { org: org.slug, email: 'admin@acme.test', role: 'admin' },
    });
    await page.goto(t.url + linkPath(link.url));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your password is set').waitFor();
    await page.getByLabel('Email').fill('admin@acme.test');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Screen a name' }).waitFor();

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('link', { name: 'Screening profile' }).click();
    await page.getByRole('heading', { name: 'Screening profile' }).waitFor();
    // Each knob with its meaning.
    for (const knob of ['sources', 'mediumCutoff', 'highCutoff', 'weakAliases', 'birthDateToleranceYears']) {
      assert.equal(await page.getByRole('rowheader', { name: knob, exact: true }).count(), 1, knob);
    }
    assert.ok((await page.textContent('body'))!.includes('A match scoring under it is not reported'));

    // Draft: EU and UN only, medium from 70.
    for (const box of await page.locator('input[name="sources"]').all()) {
      const value = await box.getAttribute('value');
      if (value === 'eu_csl' || value === 'un_csl') await box.check();
      else await box.uncheck();
    }
    await page.getByLabel('Medium cut-off').fill('70');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('The draft is saved').waitFor();

    await page.getByRole('button', { name: 'Run backtest' }).click();
    await page.getByText('Backtest done').waitFor();
    const removed = Number((await page.locator('#alerts-removed strong').textContent())?.trim());
    assert.equal(removed, 1, 'the OFAC-only alert is removed');
    assert.equal((await page.locator('#confirmed-lost strong').textContent())?.trim(), '1');
    assert.match((await page.locator('tr.lost').first().textContent()) ?? '', /ZOLOTAREV/);

    // Refused without a reason.
    await page.getByRole('button', { name: 'Activate draft' }).click();
    await page.getByText('activating it needs a reason').waitFor();
    assert.equal(await page.locator('#active-version').textContent(), '1');

    await page.getByLabel(/Reason/).fill('We screen EU customers against the EU and UN lists only (policy 2026-07).');
    await page.getByRole('button', { name: 'Activate draft' }).click();
    await page.getByText('Version 2 is active').waitFor();

    // The next screening's record names the new version, in the API and on its console page.
    const next = await screen('Aleksandr Viktorovich Morozov');
    const record = await fetch(`${t.url}/v1/screenings/${next.screeningId}`, { headers: { 'x-api-key': org.key } });
    const body = (await record.json()) as { data: { profile: { id: string; version: number } } };
    assert.equal(body.data.profile.version, 2);
    assert.match(body.data.profile.id, /^prf_/);
    await page.goto(`${t.url}/console/screenings/${next.screeningId}`);
    assert.match((await page.locator('#screening-profile').textContent()) ?? '', /version\s+2/);
    const gone = await screen('Gennady Pavlovich Zolotarev');
    assert.equal(gone.entityId, null);
  });
});
