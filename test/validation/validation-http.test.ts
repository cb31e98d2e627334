import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import { verifyReport } from '../../src/validation/report.js';
import { generateSigningKey } from '../../src/validation/signing.js';
import { ENGINES, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { GENEROUS_LIMITS, assertError, loadSampleLists } from '../helpers/http-assert.js';

/** POST/GET /v1/validation-runs (issue 31): admins only, asynchronous with progress, signed report, isolation. */

const KEY = generateSigningKey();

for (const { engine, skip } of ENGINES) {
  describe(`validation runs over HTTP (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    let other: SeededOrg;
    let analystKey: string;
    const clock = new ManualClock('2026-03-01T09:00:00.000Z');

    before(async () => {
      t = await startTestApp(engine, {
        env: { ...GENEROUS_LIMITS, VALIDATION_SIGNING_KEY: KEY.privateKey, VALIDATION_ACTIVATION_SAMPLE: '0' },
        clock,
      });
      org = await seedOrg(t.ctx);
      other = await seedOrg(t.ctx);
      const email = `analyst2@${org.slug}.test`;
      await t.ctx.services.tenants.addUser({ ctx: t.ctx.operator, input: { org: org.slug, email, role: 'analyst' } });
      analystKey = (await t.ctx.services.tenants.createApiKey({ ctx: t.ctx.operator, input: { org: org.slug, email } }))
        .key;
      await loadSampleLists(t.ctx);
    });
    after(async () => t?.close());

    const runAll = () => t.ctx.jobs.validation.job.runUntilIdle();

    it('refuses a run to a member who is not an admin (403) and bad options (400 naming the field)', async () => {
      const res = await t.request('POST', '/v1/validation-runs', { key: analystKey, body: { quick: true } });
      assertError(res, 403, 'FORBIDDEN');
      const bad = await t.request('POST', '/v1/validation-runs', {
        key: org.key,
        body: { thresholds: { selfScreenMedium: 101 } },
      });
      assertError(bad, 400, 'VALIDATION_ERROR');
      assert.match(bad.body.error.message, /selfScreenMedium/);
      const cut = await t.request('POST', '/v1/validation-runs', {
        key: org.key,
        body: { cutoffs: { medium: 90, high: 60 } },
      });
      assertError(cut, 400, 'VALIDATION_ERROR');
      assert.equal(cut.body.error.field, 'cutoffs.high');
      const none = await t.request('POST', '/v1/validation-runs');
      assertError(none, 401, 'UNAUTHORIZED');
    });

    let runId = '';
    it('queues a run (202), one at a time, and completes it in the background with a signed report', async () => {
      const res = await t.request('POST', '/v1/validation-runs', { key: org.key, body: { quick: true, seed: 5 } });
      assert.equal(res.status, 202, res.text);
      assert.match(res.body.data.id, /^val_/);
      assert.equal(res.body.data.status, 'queued');
      assert.equal(res.body.data.kind, 'quick');
      runId = res.body.data.id;
      const again = await t.request('POST', '/v1/validation-runs', { key: org.key, body: { quick: true } });
      assertError(again, 409, 'CONFLICT');
      const early = await t.request('GET', `/v1/validation-runs/${runId}/report.json`, { key: org.key });
      assertError(early, 409, 'CONFLICT');

      assert.equal(await runAll(), 1);
      const got = await t.request('GET', `/v1/validation-runs/${runId}`, { key: org.key });
      assert.equal(got.status, 200);
      const run = got.body.data;
      assert.equal(run.status, 'completed', run.error ?? '');
      assert.equal(run.progress.phase, 'latency');
      assert.equal(run.progress.done, run.progress.total);
      const self = run.summary.find((r: { key: string }) => r.key === 'selfScreenMedium');
      assert.equal(self.value, 100);
      assert.equal(self.met, true);

      const json = await t.request('GET', `/v1/validation-runs/${runId}/report.json`, { key: org.key });
      assert.equal(json.status, 200);
      assert.match(json.headers.get('content-disposition') ?? '', /attachment/);
      assert.equal(json.body.runId, runId);
      assert.equal(json.body.context.seed, 5);
      assert.equal(json.body.organization.slug, org.slug);
      assert.equal(json.body.context.lists.length, 2);
      const html = await t.request('GET', `/v1/validation-runs/${runId}/report.html`, { key: org.key });
      assert.match(html.headers.get('content-type') ?? '', /text\/html/);
      const check = verifyReport(json.text, { html: html.text, expectedKeyId: KEY.keyId });
      assert.equal(check.valid, true, check.notes.join('; '));

      const list = await t.request('GET', '/v1/validation-runs', { key: org.key });
      assert.equal(list.body.meta.pagination.total, 1);
      assert.equal(list.body.data[0].id, runId);
    });

    it("answers 404 for another organization's run and lists none of them", async () => {
      for (const path of [`/v1/validation-runs/${runId}`, `/v1/validation-runs/${runId}/report.json`]) {
        assertError(await t.request('GET', path, { key: other.key }), 404, 'NOT_FOUND');
      }
      const list = await t.request('GET', '/v1/validation-runs', { key: other.key });
      assert.equal(list.body.meta.pagination.total, 0);
      assertError(await t.request('GET', '/v1/validation-runs/val_nope', { key: org.key }), 404, 'NOT_FOUND');
    });

    it('a weakened engine (medium cut-off 99) shows the recall drop in its summary', async () => {
      const res = await t.request('POST', '/v1/validation-runs', {
        key: org.key,
        body: { quick: true, seed: 5, cutoffs: { medium: 99 } },
      });
      assert.equal(res.status, 202, res.text);
      await runAll();
      const weak = (await t.request('GET', `/v1/validation-runs/${res.body.data.id}`, { key: org.key })).body.data;
      const strong = (await t.request('GET', `/v1/validation-runs/${runId}`, { key: org.key })).body.data;
      const sum = (run: { summary: { key: string; value: number }[] }) =>
        run.summary.filter((r) => r.key.startsWith('perturbationMedium:')).reduce((s, r) => s + r.value, 0);
      assert.ok(sum(weak) < sum(strong), `${sum(weak)} < ${sum(strong)}`);
      assert.equal(weak.passed, false);
    });

    it("measures the organization's profile: one with an absurd cut-off shows the recall drop, and is named", async () => {
      const unknown = await t.request('POST', '/v1/validation-runs', { key: org.key, body: { profile: 'prf_nope' } });
      assertError(unknown, 400, 'VALIDATION_ERROR', { field: 'profile' });
      const created = await t.request('POST', '/v1/profiles', {
        key: org.key,
        body: { name: 'Weakened', settings: { mediumCutoff: 99, highCutoff: 100 } },
      });
      assert.equal(created.status, 201, created.text);
      const profileId = created.body.data.id as string;
      assert.equal(
        (await t.request('POST', `/v1/profiles/${profileId}/backtest`, { key: org.key, body: {} })).status,
        200,
      );
      const activated = await t.request('POST', `/v1/profiles/${profileId}/activate`, {
        key: org.key,
        body: { reason: 'a deliberately weakened engine, for the validation report' },
      });
      assert.equal(activated.status, 200, activated.text);
      const version = activated.body.data.activeVersion as number;

      const res = await t.request('POST', '/v1/validation-runs', { key: org.key, body: { quick: true, seed: 5 } });
      assert.equal(res.status, 202, res.text);
      await runAll();
      const id = res.body.data.id as string;
      const weak = (await t.request('GET', `/v1/validation-runs/${id}`, { key: org.key })).body.data;
      assert.equal(weak.status, 'completed', weak.error ?? '');
      const report = (await t.request('GET', `/v1/validation-runs/${id}/report.json`, { key: org.key })).body;
      assert.deepEqual(report.context.profile, { id: profileId, version });
      assert.equal(report.context.cutoffs.medium, 99);
      const strong = (await t.request('GET', `/v1/validation-runs/${runId}/report.json`, { key: org.key })).body;
      assert.deepEqual(strong.context.profile, { id: 'default', version: 0 });
      const share = (r: { selfScreen: { names: number; found: number } }) => r.selfScreen.found / r.selfScreen.names;
      assert.ok(share(report) < share(strong), `self-screen ${share(report)} < ${share(strong)}`);
      assert.ok(report.selfScreen.misses.length > 0, 'every miss of the weakened engine is listed');
      assert.equal(weak.passed, false);
      const html = await t.request('GET', `/v1/validation-runs/${id}/report.html`, { key: org.key });
      assert.match(html.text, new RegExp(`${profileId} \\(version ${version}\\)`));
    });

    it('is in the OpenAPI document with its security and errors', async () => {
      const doc = (await t.request('GET', '/openapi.json')).body;
      const post = doc.paths['/v1/validation-runs'].post;
      assert.deepEqual(post.security, [{ apiKey: [] }]);
      for (const status of ['202', '400', '401', '403', '409', '429']) assert.ok(post.responses[status], status);
      assert.ok(doc.paths['/v1/validation-runs/{id}'].get.responses['404']);
      assert.ok(doc.paths['/v1/validation-runs/{id}/{file}'].get);
    });
  });
}
