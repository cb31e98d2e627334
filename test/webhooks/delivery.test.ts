import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { ManualClock } from '../../src/infra/clock.js';
import { run } from '../../src/cli/main.js';
import { claimDueDeliveries, enqueueDelivery } from '../../src/webhooks/delivery-store.js';
import { serializeEvent } from '../../src/webhooks/payload.js';
import {
  ENGINES,
  type SeededOrg,
  type TestApp,
  activateRecords,
  person,
  sampleRecords,
  seedOrg,
  startTestApp,
} from '../helpers/harness.js';
import { type Receiver, startReceiver } from './receiver.js';

const SECRET = 'whsec-test-0123456789';
const DELAYS = [50, 100, 200, 400, 800];
const ENV = {
  WEBHOOK_RETRY_DELAYS: DELAYS.map((d) => `${d}ms`).join(','),
  WEBHOOK_TIMEOUT: '300ms',
  WEBHOOK_POLL_INTERVAL: '100ms',
};

/** Runs the command line in-process and returns what it printed. */
async function cli(t: TestApp, args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...a: unknown[]) => lines.push(a.join(' '));
  try {
    const code = await run(args, t.env.env, { clock: t.clock });
    return { code, out: lines.join('\n') };
  } finally {
    console.log = log;
  }
}

for (const { engine, skip } of ENGINES) {
  describe(`webhook deliveries (${engine})`, { skip }, () => {
    let t: TestApp | undefined;
    const receivers: Receiver[] = [];
    afterEach(async () => {
      await t?.ctx.jobs.stop();
      for (const r of receivers.splice(0)) await r.close();
      await t?.close();
      t = undefined;
    });

    const setup = async (reply?: Parameters<typeof startReceiver>[1]) => {
      const receiver = await startReceiver(SECRET, reply);
      receivers.push(receiver);
      t = await startTestApp(engine, { env: ENV });
      const org = await seedOrg(t.ctx, { webhookUrl: receiver.url, webhookSecret: SECRET });
      return { app: t, receiver, org, clock: t.clock as ManualClock, jobs: t.ctx.jobs };
    };
    /** A delivery written straight into the outbox, as the rescreen does. */
    const outbox = async (app: TestApp, org: SeededOrg, n = 1) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const now = app.clock.now();
        const payload = serializeEvent(
          'alert.created',
          now.toISOString(),
          { id: org.orgId, slug: org.slug, name: `Org ${org.slug}` },
          {
            id: `alt_fixture${i}`,
            monitorId: 'mon_fixture',
            entityId: 'us_ofac:1',
            entityName: 'X',
            oldRiskScore: 0,
            newRiskScore: 90,
            oldRiskLevel: 'low',
            newRiskLevel: 'high',
            oldSources: [],
            newSources: ['us_ofac'],
            oldLists: [],
            newLists: ['US'],
            reasons: ['source_added'],
            timestamp: now.toISOString(),
            resolvedAt: null,
          },
        );
        ids.push(
          await enqueueDelivery(app.ctx.database.db, {
            orgId: org.orgId,
            alertId: null,
            event: 'alert.created',
            payload,
            isTest: false,
            now,
          }),
        );
      }
      return ids;
    };
    const delivery = (app: TestApp, id: string) =>
      app.ctx.database.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('a claim takes at most its limit of due deliveries, oldest first, and the next claim the next ones', async () => {
      const { app, org, clock } = await setup();
      const ids = await outbox(app, org, 12);
      const claim = () =>
        claimDueDeliveries(app.ctx.database, { now: clock.now(), nodeId: app.ctx.nodeId, leaseMs: 60_000, limit: 5 });
      const first = await claim();
      const second = await claim();
      assert.equal(first.length, 5);
      assert.equal(second.length, 5);
      assert.equal(new Set([...first, ...second].map((d) => d.id)).size, 10);
      const claimed = await app.ctx.database.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('id', 'in', ids)
        .where('claimed_by', 'is not', null)
        .execute();
      assert.equal(claimed.length, 10);
    });

    it('sends a signed alert.created after a list change designates a monitored party, and alert.resolved from the command line', async () => {
      const { app, receiver, org, jobs } = await setup();
      const base = sampleRecords();
      await activateRecords(app.ctx, 'us_ofac', base.us_ofac);
      jobs.start();
      const s = await app.request('POST', '/v1/screen', {
        key: org.key,
        body: { name: 'Ivan Petrovich Sidorov', birthDate: '1970-02-03' },
      });
      const m = await app.request('POST', '/v1/monitors', {
        key: org.key,
        body: { screeningId: s.body.data.screeningId },
      });
      assert.equal(m.status, 201);
      await activateRecords(app.ctx, 'us_ofac', [
        ...base.us_ofac,
        person('us_ofac', '2001', 'SIDOROV, Ivan Petrovich', { birthDates: [{ date: '1970-02-03' }] }),
      ]);
      const [got] = await receiver.waitFor(1);
      assert.ok(got);
      assert.equal(got.signatureValid, true, 'signature verified by @octokit/webhooks-methods');
      assert.equal(got.event, 'alert.created');
      assert.match(got.deliveryId, /^whd_/);
      assert.equal(got.headers['x-service-test'], undefined);
      assert.equal(got.headers['content-type'], 'application/json');
      assert.equal(got.json.event, 'alert.created');
      assert.equal(got.json.organization.slug, org.slug);
      assert.equal(got.json.alert.monitorId, m.body.data.id);
      assert.equal(got.json.alert.entityId, 'us_ofac:2001');
      assert.equal(got.json.alert.newRiskLevel, 'high');
      assert.deepEqual(got.json.alert.newSources, ['us_ofac']);
      assert.equal(got.json.alert.resolvedAt, null);
      assert.ok(Array.isArray(got.json.alert.oldLists) && got.json.alert.newLists.length === 1);

      const listed = await cli(app, ['alerts', 'list', '--org', org.slug, '--json']);
      assert.equal(listed.code, 0);
      const alerts = JSON.parse(listed.out);
      assert.equal(alerts.length, 1);
      assert.equal(alerts[0].id, got.json.alert.id);
      const resolved = await cli(app, [
        'alerts',
        'resolve',
        alerts[0].id,
        '--user',
        org.email,
        '--note',
        'false positive: other person',
        '--json',
      ]);
      assert.equal(resolved.code, 0, resolved.out);
      jobs.deliveries.job.kick();
      const [, second] = await receiver.waitFor(2);
      assert.ok(second);
      assert.equal(second.signatureValid, true);
      assert.equal(second.event, 'alert.resolved');
      assert.notEqual(second.deliveryId, got.deliveryId);
      assert.equal(second.json.alert.id, got.json.alert.id);
      assert.ok(second.json.alert.resolvedAt);
      assert.equal(second.json.alert.resolvedBy, org.email);
      assert.equal(second.json.alert.note, 'false positive: other person');
      const again = await cli(app, ['alerts', 'resolve', alerts[0].id, '--user', org.email, '--json']);
      assert.equal(again.code, 1);
      assert.equal(JSON.parse(again.out).error.code, 'CONFLICT');
    });

    it('retries a failing receiver on the scaled schedule with the same delivery id, until it recovers', async () => {
      const { app, receiver, org, clock, jobs } = await setup((_r, i) => ({ status: i < 2 ? 500 : 204 }));
      const [id] = await outbox(app, org);
      assert.equal(await jobs.deliveries.runOnce(), 1);
      assert.equal(await jobs.deliveries.runOnce(), 0, 'not due before the first delay');
      clock.advance(DELAYS[0]! - 1);
      assert.equal(await jobs.deliveries.runOnce(), 0);
      clock.advance(1);
      assert.equal(await jobs.deliveries.runOnce(), 1);
      clock.advance(DELAYS[1]!);
      assert.equal(await jobs.deliveries.runOnce(), 1);
      assert.equal(receiver.received.length, 3);
      assert.deepEqual(new Set(receiver.received.map((r) => r.deliveryId)), new Set([id]));
      assert.ok(receiver.received.every((r) => r.signatureValid && r.body === receiver.received[0]!.body));
      const row = await delivery(app, id!);
      assert.equal(row.state, 'delivered');
      assert.equal(row.attempts, 3);
      const attempts = await app.ctx.database.db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('delivery_id', '=', id!)
        .orderBy('attempt')
        .execute();
      assert.deepEqual(
        attempts.map((a) => a.status),
        [500, 500, 204],
      );
      const gaps = attempts.slice(1).map((a, i) => Date.parse(a.started_at) - Date.parse(attempts[i]!.started_at));
      assert.deepEqual(gaps, [DELAYS[0], DELAYS[1]]);
      const orgRow = await app.ctx.database.db
        .selectFrom('organizations')
        .selectAll()
        .where('id', '=', org.orgId)
        .executeTakeFirstOrThrow();
      assert.equal(orgRow.webhook_failures, 0, 'a success ends the run of failures');
    });

    it('marks a delivery failed after the last retry', async () => {
      const { app, receiver, org, clock, jobs } = await setup(() => ({ status: 500 }));
      const [id] = await outbox(app, org);
      for (let i = 0; i < 10; i++) {
        await jobs.deliveries.runOnce();
        clock.advance(1000);
      }
      assert.equal(receiver.received.length, DELAYS.length + 1);
      const row = await delivery(app, id!);
      assert.equal(row.state, 'failed');
      assert.equal(row.attempts, DELAYS.length + 1);
      assert.equal(row.last_status, 500);
    });

    it('pauses after 10 failed attempts in a row, holds deliveries, and delivers them after `webhooks resume`', async () => {
      let healthy = false;
      const { app, receiver, org, clock, jobs } = await setup(() => ({ status: healthy ? 200 : 503 }));
      const ids = await outbox(app, org, 2);
      for (let i = 0; i < 5; i++) {
        await jobs.deliveries.runOnce();
        clock.advance(1000);
      }
      assert.equal(receiver.received.length, 10);
      const paused = await app.ctx.database.db
        .selectFrom('organizations')
        .selectAll()
        .where('id', '=', org.orgId)
        .executeTakeFirstOrThrow();
      assert.ok(paused.webhook_paused_at, 'paused');
      assert.equal(paused.webhook_failures, 10);
      const status = JSON.parse((await cli(app, ['webhooks', 'status', '--org', org.slug, '--json'])).out);
      assert.equal(status.paused, true);
      // Events keep being stored while paused, and nothing is sent.
      const [held] = await outbox(app, org);
      for (let i = 0; i < 3; i++) {
        assert.equal(await jobs.deliveries.runOnce(), 0);
        clock.advance(10_000);
      }
      assert.equal(receiver.received.length, 10);
      healthy = true;
      const resumed = await app.ctx.services.webhooks.resume({ ctx: app.ctx.operator, input: { org: org.slug } });
      assert.equal(resumed.wasPaused, true);
      assert.equal(resumed.released, 3);
      await jobs.deliveries.job.runUntilIdle();
      const delivered = receiver.received.slice(10);
      assert.deepEqual(new Set(delivered.map((r) => r.deliveryId)), new Set([...ids, held]));
      assert.ok(delivered.every((r) => r.signatureValid));
      for (const id of [...ids, held!]) assert.equal((await delivery(app, id)).state, 'delivered');
    });

    it('fails an attempt on a time-out, a redirect (not followed) and a 500', async () => {
      const replies = [{ delayMs: 2000 }, { status: 302, headers: { location: '/elsewhere' } }, { status: 500 }];
      const { app, receiver, org, clock, jobs } = await setup((_r, i) => replies[i] ?? { status: 200 });
      const [id] = await outbox(app, org);
      const expected: [number | null, RegExp][] = [
        [null, /no response within 300 ms/],
        [302, /redirect/],
        [500, /HTTP 500/],
      ];
      for (const [status, error] of expected) {
        assert.equal(await jobs.deliveries.runOnce(), 1);
        const row = await delivery(app, id!);
        assert.equal(row.state, 'pending');
        assert.equal(row.last_status, status);
        assert.match(row.last_error ?? '', error);
        clock.advance(1000);
      }
      assert.equal(receiver.received.length, 3, 'the redirect was not followed');
      await jobs.deliveries.runOnce();
      assert.equal((await delivery(app, id!)).state, 'delivered');
    });

    it('sends a test event marked X-Service-Test: true from `webhooks test`, not counted toward pausing', async () => {
      const { app, receiver, org } = await setup(() => ({ status: 500 }));
      const failed = await cli(app, ['webhooks', 'test', '--org', org.slug, '--json']);
      assert.equal(JSON.parse(failed.out).delivered, false);
      receiver.reply = () => ({ status: 200 });
      const ok = await app.ctx.services.webhooks.sendTest({ ctx: app.ctx.operator, input: { org: org.slug } });
      assert.equal(ok.delivered, true);
      assert.equal(receiver.received.length, 2);
      for (const r of receiver.received) {
        assert.equal(r.headers['x-service-test'], 'true');
        assert.equal(r.signatureValid, true);
        assert.equal(r.event, 'alert.created');
      }
      const orgRow = await app.ctx.database.db
        .selectFrom('organizations')
        .selectAll()
        .where('id', '=', org.orgId)
        .executeTakeFirstOrThrow();
      assert.equal(orgRow.webhook_failures, 0);
    });

    it("never shows or sends one organization's alerts to another", async () => {
      const { app, receiver, org, jobs } = await setup();
      const otherSecret = 'other-secret-0123456789';
      const otherReceiver = await startReceiver(otherSecret);
      receivers.push(otherReceiver);
      const other = await seedOrg(app.ctx, { webhookUrl: otherReceiver.url, webhookSecret: otherSecret });
      const base = sampleRecords();
      await activateRecords(app.ctx, 'us_ofac', base.us_ofac);
      for (const who of [org, other]) {
        const s = await app.request('POST', '/v1/screen', {
          key: who.key,
          body: { name: who === org ? 'Ivan Sidorov' : 'Petra Novak' },
        });
        assert.equal(
          (await app.request('POST', '/v1/monitors', { key: who.key, body: { screeningId: s.body.data.screeningId } }))
            .status,
          201,
        );
      }
      await activateRecords(app.ctx, 'us_ofac', [...base.us_ofac, person('us_ofac', '2001', 'SIDOROV, Ivan')]);
      await jobs.rescreen.job.runUntilIdle();
      await jobs.deliveries.job.runUntilIdle();
      assert.equal(receiver.received.length, 1);
      assert.equal(otherReceiver.received.length, 0, 'the other organization hears nothing of it');
      const theirs = JSON.parse((await cli(app, ['alerts', 'list', '--org', other.slug, '--json'])).out);
      assert.deepEqual(theirs, []);
      const alertId = receiver.received[0]!.json.alert.id as string;
      await assert.rejects(
        app.ctx.services.alerts.resolveAlert({ ctx: app.ctx.operator, input: { id: alertId, user: other.email } }),
        (e: { code?: string }) => e.code === 'FORBIDDEN',
      );
      const monitors = await app.request('GET', '/v1/monitors', { key: other.key });
      assert.ok(monitors.body.data.every((x: { query: string }) => x.query === 'Petra Novak'));
    });
  });
}
