import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WEBHOOK_EVENTS } from '../../src/webhooks/index.js';
import {
  ENGINES,
  REPO_ROOT,
  type TestApp,
  activateRecords,
  person,
  sampleRecords,
  seedOrg,
  startTestApp,
} from '../helpers/harness.js';
import { assertDescribedByOpenApi, webhookOfOpenApi } from '../helpers/openapi-webhooks.js';
import { type Receiver, startReceiver } from './receiver.js';

/**
 * Every event the service delivers to a webhook URL is described under the OpenAPI document's
 * `webhooks` (OpenAPI 3.1), with its body's schema. The delivered set is WEBHOOK_EVENTS, the type of
 * the event every delivery is written with (enqueueDelivery); the events the senders write are read
 * from the source, so an event sent but not listed, or listed but never sent, fails here.
 */

const SECRET = 'webhook-events-secret-0123456789';

/** The event names written into the outbox by the service's code (`enqueueDelivery({... event: '...'`). */
function eventsSentBySource(): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.ts')) {
        const text = readFileSync(file, 'utf8');
        for (const call of text.split('enqueueDelivery(').slice(1)) {
          const event = /\bevent: '([a-z]+\.[a-z]+)'/.exec(call.slice(0, 400))?.[1];
          if (event) found.add(event);
        }
      }
    }
  };
  walk(join(REPO_ROOT, 'src'));
  return found;
}

for (const { engine, skip } of ENGINES) {
  describe(`webhook events in the OpenAPI document (${engine})`, { skip }, () => {
    let t: TestApp;
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver(SECRET);
      t = await startTestApp(engine);
    });
    after(async () => {
      await t?.ctx.jobs.stop();
      await t?.close();
      await receiver?.close();
    });

    it('describes every event the service delivers, and only those', async () => {
      assert.deepEqual([...eventsSentBySource()].sort(), [...WEBHOOK_EVENTS].sort());
      const { doc } = await webhookOfOpenApi(t, 'alert.created');
      assert.deepEqual(Object.keys(doc.webhooks).sort(), [...WEBHOOK_EVENTS].sort());
      for (const event of WEBHOOK_EVENTS) {
        const { schema, name } = await webhookOfOpenApi(t, event);
        const named = schema.properties.event;
        assert.deepEqual(
          named.const !== undefined ? [named.const] : named.enum,
          [event],
          `${name}.event is "${event}"`,
        );
        const headers = doc.webhooks[event].post.parameters.map((p: { name: string }) => p.name);
        assert.ok(headers.includes('X-Service-Signature'), `${event}: ${headers}`);
      }
    });

    it('alert.resolved: the delivery a resolution writes is what its schema describes', async () => {
      const org = await seedOrg(t.ctx, { webhookUrl: receiver.url, webhookSecret: SECRET });
      const base = sampleRecords();
      await activateRecords(t.ctx, 'us_ofac', base.us_ofac);
      const screened = await t.request('POST', '/v1/screen', { key: org.key, body: { name: 'Ivan Sidorov' } });
      const body = { screeningId: screened.body.data.screeningId };
      assert.equal((await t.request('POST', '/v1/monitors', { key: org.key, body })).status, 201);
      await activateRecords(t.ctx, 'us_ofac', [...base.us_ofac, person('us_ofac', '2001', 'SIDOROV, Ivan')]);
      await t.ctx.jobs.rescreen.job.runUntilIdle();
      await t.ctx.jobs.deliveries.job.runUntilIdle();
      const [created] = await receiver.waitFor(1);
      assert.equal(created!.event, 'alert.created');
      await assertDescribedByOpenApi(t, 'alert.created', created!.json, false);
      const input = { id: created!.json.alert.id as string, user: org.email, note: 'same name, other person' };
      await t.ctx.services.alerts.resolveAlert({ ctx: t.ctx.operator, input });
      await t.ctx.jobs.deliveries.job.runUntilIdle();
      const resolved = (await receiver.waitFor(2)).find((r) => r.event === 'alert.resolved');
      assert.ok(resolved, receiver.received.map((r) => r.event).join(', '));
      assert.equal(resolved.signatureValid, true);
      assert.equal(resolved.json.alert.resolvedBy, org.email);
      assert.equal(resolved.json.alert.note, 'same name, other person');
      await assertDescribedByOpenApi(t, 'alert.resolved', resolved.json, false);
    });
  });
}
