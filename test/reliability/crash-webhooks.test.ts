/**
 * Reliability (issue 17, 6b): `sanctions serve` on SQLite as a real child process, killed with
 * SIGKILL while it sends webhook deliveries to a real receiver, several rounds. Then no delivery is
 * lost, every one is signed, and a duplicate only ever comes with the same delivery id and body. The
 * organization's secret is sealed at rest (SECRET_KEY), so the signatures also prove each restarted
 * process opens it.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { spawnReadyServer } from '../../bench/child-server.js';
import { createContext } from '../../src/start/context.js';
import { enqueueDelivery } from '../../src/webhooks/delivery-store.js';
import { type TestEnv, seedOrg, testEnv } from '../helpers/harness.js';
import { loadSampleLists } from '../helpers/http-assert.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';

const SECRET = 'reliability-secret-0123456789';
const DELIVERIES = 60;
const ROUNDS = Number(process.env.RELIABILITY_ROUNDS ?? 3);

describe('kill -9 during webhook deliveries (sqlite, real server process, real receiver)', () => {
  let env: TestEnv;
  let receiver: Receiver;
  const ids: string[] = [];
  before(async () => {
    receiver = await startReceiver(SECRET, () => ({ status: 200, delayMs: 150 }));
    env = testEnv('sqlite', {
      WEBHOOK_POLL_INTERVAL: '100ms',
      // Generous on a loaded machine: an attempt that times out counts as failed (and is retried).
      WEBHOOK_TIMEOUT: '3s',
      WEBHOOK_PAUSE_AFTER_FAILURES: '1000',
      WEBHOOK_RETRY_DELAYS: '100ms,100ms,100ms,100ms,100ms',
      SECRET_KEY: randomBytes(32).toString('base64'),
    });
    const ctx = await createContext(env.config);
    const org = await seedOrg(ctx, { tier: 'enterprise', webhookUrl: receiver.url, webhookSecret: SECRET });
    await loadSampleLists(ctx);
    const stored = await ctx.database.db.selectFrom('organizations').select('webhook_secret').executeTakeFirstOrThrow();
    assert.match(stored.webhook_secret ?? '', /^enc:v1:/, 'the secret is sealed at rest');
    for (let i = 0; i < DELIVERIES; i++) {
      const payload = JSON.stringify({ event: 'alert.created', n: i, org: org.orgId });
      ids.push(
        await enqueueDelivery(ctx.database.db, {
          orgId: org.orgId,
          alertId: null,
          event: 'alert.created',
          payload,
          isTest: false,
          now: new Date(),
        }),
      );
    }
    await ctx.close();
  });
  after(async () => {
    await receiver?.close();
    await env?.cleanup();
  });

  it(`delivers every delivery over ${ROUNDS} kill -9 rounds; duplicates carry the same id and body`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const server = await spawnReadyServer(env.env);
      try {
        // Killed once a few more requests came in: others are then being sent or answered.
        await receiver.waitFor(Math.min(DELIVERIES - 5, receiver.received.length + 8), 30_000);
      } finally {
        await server.kill9();
      }
    }
    const last = await spawnReadyServer(env.env);
    const ctx = await createContext(env.config, { command: true });
    let states: { id: string; state: string }[] = [];
    try {
      // The killed nodes' claims run out after twice WEBHOOK_TIMEOUT plus a second; then all are sent.
      const deadline = Date.now() + 60_000;
      do {
        await new Promise((r) => setTimeout(r, 250));
        states = await ctx.database.db.selectFrom('webhook_deliveries').select(['id', 'state']).execute();
      } while (states.some((s) => s.state !== 'delivered') && Date.now() < deadline);
    } finally {
      await last.kill9();
      await ctx.close();
    }
    assert.deepEqual(
      states.filter((s) => s.state !== 'delivered'),
      [],
      'every delivery is recorded as delivered',
    );
    const byId = new Map<string, string[]>();
    for (const r of receiver.received) byId.set(r.deliveryId, [...(byId.get(r.deliveryId) ?? []), r.body]);
    assert.deepEqual([...byId.keys()].sort(), [...ids].sort(), 'every delivery arrived, and nothing else');
    assert.ok(
      receiver.received.every((r) => r.signatureValid),
      'every request is signed with the secret',
    );
    for (const [id, bodies] of byId) assert.ok(new Set(bodies).size === 1, `${id}: a duplicate has the same body`);
    assert.ok(receiver.received.length >= DELIVERIES);
  });
});
