import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import { generateSigningKey } from '../../src/validation/signing.js';
import {
  ENGINES,
  type TestApp,
  activateRecords,
  person,
  sampleRecords,
  seedOrg,
  startTestApp,
} from '../helpers/harness.js';
import { GENEROUS_LIMITS } from '../helpers/http-assert.js';
import { assertDescribedByOpenApi } from '../helpers/openapi-webhooks.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';

/**
 * A list activation is validated by a quick run (issue 31, item 3): its new and changed entries are
 * self-screened; when one is not found, the organizations' webhooks get validation.missed, the run is
 * listed to every organization, and /metrics shows its figures.
 */

const KEY = generateSigningKey();
const SECRET = 'whsec_validation_activation_test';

for (const { engine, skip } of ENGINES) {
  describe(`validation on list activation (${engine})`, { skip }, () => {
    let t: TestApp;
    let receiver: Receiver;
    let orgKey = '';
    const clock = new ManualClock('2026-03-01T09:00:00.000Z');

    before(async () => {
      receiver = await startReceiver(SECRET);
      t = await startTestApp(engine, {
        env: { ...GENEROUS_LIMITS, VALIDATION_SIGNING_KEY: KEY.privateKey, METRICS_TOKEN: 'metrics-token-for-tests' },
        clock,
      });
      orgKey = (await seedOrg(t.ctx, { webhookUrl: receiver.url, webhookSecret: SECRET })).key;
      await activateRecords(t.ctx, 'us_ofac', sampleRecords().us_ofac);
    });
    after(async () => {
      await t?.close();
      await receiver?.close();
    });

    it('records a quick run on an activation and alerts when a new entry does not find itself', async () => {
      // The first load is no activation of new entries: nothing was in force before it.
      assert.equal(await t.ctx.jobs.validation.job.runUntilIdle(), 0);
      clock.advance(60_000);
      const next = [
        ...sampleRecords().us_ofac,
        person('us_ofac', '2001', 'Vladislav Gennadievich PETRENKO'),
        // A publisher's entry with no name to screen by: it cannot be found, and the alert must say so.
        person('us_ofac', '2002', '—'),
      ];
      await activateRecords(t.ctx, 'us_ofac', next);
      // The swap records the run (in the background) and kicks the runner.
      for (let i = 0; i < 50 && (await t.ctx.jobs.validation.job.runUntilIdle()) === 0; i++)
        await new Promise((r) => setTimeout(r, 20));

      const list = await t.request('GET', '/v1/validation-runs', { key: orgKey });
      const run = list.body.data.find((r: { kind: string }) => r.kind === 'activation');
      assert.ok(run, JSON.stringify(list.body));
      assert.equal(run.status, 'completed', run.error ?? '');
      const found = run.summary.find((r: { key: string }) => r.key === 'newEntriesFound');
      assert.equal(found.value, 50, 'one of the two new entries is found');
      assert.equal(found.met, false);
      const report = (await t.request('GET', `/v1/validation-runs/${run.id}/report.json`, { key: orgKey })).body;
      assert.deepEqual(report.selfScreen.focusMissed, ['us_ofac:2002']);
      assert.equal(report.selfScreen.focusEntities, 2);

      await t.ctx.jobs.deliveries.job.runUntilIdle();
      const received = await receiver.waitFor(1);
      const event = received.find((r) => r.event === 'validation.missed');
      assert.ok(event, received.map((r) => r.event).join(', '));
      assert.equal(event.signatureValid, true);
      assert.equal(event.json.validation.runId, run.id);
      assert.deepEqual(event.json.validation.missed, ['us_ofac:2002']);
      await assertDescribedByOpenApi(t, 'validation.missed', event.json, true);

      const metrics = await t.request('GET', '/metrics', {
        headers: { authorization: 'Bearer metrics-token-for-tests' },
      });
      assert.equal(metrics.status, 200);
      assert.match(metrics.text, /sanctions_validation_last_run_value\{measure="newEntriesFound"\} 50/);
      assert.match(metrics.text, /sanctions_validation_last_run_met\{measure="newEntriesFound"\} 0/);
    });
  });
}
