import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ManualClock } from '../../src/infra/clock.js';
import { listLabels } from '../../src/lists/labels.js';
import { alertReasons } from '../../src/monitoring/alert-rules.js';
import { SOURCE_LABELS } from '../../src/lists/model.js';
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

describe('alert rules', () => {
  const s = (riskScore: number, riskLevel: string, sources: string[] = []) => ({ riskScore, riskLevel, sources });
  it('alerts on a level change', () => {
    assert.deepEqual(alertReasons(s(60, 'medium', ['un_csl']), s(85, 'high', ['un_csl']), 90), ['risk_level_changed']);
  });
  it('alerts when the threshold is crossed upwards (old < T <= new), including landing on it', () => {
    assert.deepEqual(alertReasons(s(40, 'low'), s(45, 'low'), 45), ['threshold_crossed']);
    assert.deepEqual(alertReasons(s(44.9, 'low'), s(46, 'low'), 45), ['threshold_crossed']);
    assert.deepEqual(alertReasons(s(45, 'low'), s(49, 'low'), 45), []);
  });
  it('alerts when the threshold is crossed downwards (old >= T > new)', () => {
    assert.deepEqual(alertReasons(s(45, 'low'), s(44, 'low'), 45), ['threshold_crossed']);
    assert.deepEqual(alertReasons(s(44, 'low'), s(10, 'low'), 45), []);
  });
  it('alerts when a source is added, not when one drops out alone', () => {
    assert.deepEqual(alertReasons(s(90, 'high', ['us_ofac']), s(90, 'high', ['us_ofac', 'un_csl']), 55), [
      'source_added',
    ]);
    assert.deepEqual(alertReasons(s(90, 'high', ['us_ofac', 'un_csl']), s(90, 'high', ['us_ofac']), 55), []);
  });
  it('gives every reason that applies, and list labels for sources', () => {
    assert.deepEqual(alertReasons(s(0, 'low'), s(95, 'high', ['un_csl']), 55), [
      'risk_level_changed',
      'threshold_crossed',
      'source_added',
    ]);
    assert.deepEqual(listLabels(['un_csl', 'xx']), [SOURCE_LABELS.un_csl, 'xx']);
  });
});

for (const { engine, skip } of ENGINES) {
  describe(`rescreening (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    let idle: SeededOrg;
    const base = sampleRecords();
    const designated = person('us_ofac', '2001', 'SIDOROV, Ivan Petrovich', {
      birthDates: [{ date: '1970-02-03' }],
      nationalities: ['RU'],
      programs: ['RUSSIA-EO14024'],
    });

    const monitorFor = async (who: SeededOrg, name: string, riskThreshold?: number) => {
      const s = await t.request('POST', '/v1/screen', { key: who.key, body: { name, birthDate: '1970-02-03' } });
      assert.equal(s.status, 200, s.text);
      const m = await t.request('POST', '/v1/monitors', {
        key: who.key,
        body: { screeningId: s.body.data.screeningId, ...(riskThreshold !== undefined ? { riskThreshold } : {}) },
      });
      assert.equal(m.status, 201, m.text);
      return { screening: s.body.data, monitor: m.body.data };
    };
    const alertsOf = (orgId: string) =>
      t.ctx.database.db
        .selectFrom('alerts')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    const rescreen = () => t.ctx.jobs.rescreen.job.runUntilIdle();

    before(async () => {
      t = await startTestApp(engine);
      org = await seedOrg(t.ctx, {
        tier: 'starter',
        webhookUrl: 'http://127.0.0.1:9/hooks',
        webhookSecret: 'a-secret-of-16-chars',
      });
      idle = await seedOrg(t.ctx, { tier: 'starter' });
      await activateRecords(t.ctx, 'us_ofac', base.us_ofac);
      await activateRecords(t.ctx, 'un_csl', base.un_csl);
    });
    after(async () => t?.close());

    it('a pass right after creation changes nothing: the monitor starts from its screening', async () => {
      const { screening } = await monitorFor(org, 'Ivan Petrovich Sidorov');
      assert.equal(screening.riskLevel, 'low');
      await monitorFor(idle, 'Ivan Petrovich Sidorov');
      const report = await rescreen();
      assert.equal(report?.alerts ?? 0, 0);
      assert.equal((await alertsOf(org.orgId)).length, 0);
    });

    it('raises one alert (and one alert.created delivery, in the outbox) when a list change designates the monitored party', async () => {
      await activateRecords(t.ctx, 'us_ofac', [...base.us_ofac, designated]);
      const report = await rescreen();
      assert.ok(report && report.rescreened >= 2, JSON.stringify(report));
      const alerts = await alertsOf(org.orgId);
      assert.equal(alerts.length, 1);
      const a = alerts[0]!;
      assert.equal(a.old_risk_level, 'low');
      assert.equal(a.new_risk_level, 'high');
      assert.equal(a.entity_id, 'us_ofac:2001');
      assert.deepEqual(JSON.parse(a.new_sources), ['us_ofac']);
      assert.deepEqual(JSON.parse(a.reasons), ['risk_level_changed', 'threshold_crossed', 'source_added']);
      assert.equal(a.resolved_at, null);
      const deliveries = await t.ctx.database.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('alert_id', '=', a.id)
        .execute();
      assert.equal(deliveries.length, 1);
      const payload = JSON.parse(deliveries[0]!.payload);
      assert.equal(payload.event, 'alert.created');
      assert.deepEqual(payload.organization, { id: org.orgId, slug: org.slug, name: `Org ${org.slug}` });
      assert.equal(payload.alert.id, a.id);
      assert.equal(payload.alert.resolvedAt, null);
      assert.deepEqual(payload.alert.newLists, [SOURCE_LABELS.us_ofac]);
      assert.deepEqual(payload.alert.oldLists, []);
      // The other organization has no webhook URL: an alert, no delivery.
      const theirs = await alertsOf(idle.orgId);
      assert.equal(theirs.length, 1);
      const none = await t.ctx.database.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('org_id', '=', idle.orgId)
        .execute();
      assert.equal(none.length, 0);
      // The monitor's state moved on: a second pass raises nothing new.
      const listed = await t.request('GET', '/v1/monitors', { key: org.key });
      const m = listed.body.data.find((x: { query: string }) => x.query === 'Ivan Petrovich Sidorov');
      assert.equal(m.lastRiskLevel, 'high');
      assert.deepEqual(m.lastSources, ['us_ofac']);
      assert.equal((await rescreen())?.alerts ?? 0, 0);
      assert.equal((await alertsOf(org.orgId)).length, 1);
    });

    it('alerts when the party is delisted (threshold crossed downwards), but not for a removed monitor', async () => {
      const { monitor } = await monitorFor(org, 'Zarya Shipping');
      await t.request('DELETE', `/v1/monitors/${monitor.id}`, { key: org.key });
      const seen = new Set((await alertsOf(org.orgId)).map((a) => a.id));
      await activateRecords(
        t.ctx,
        'us_ofac',
        base.us_ofac.filter((r) => r.id !== '1002'),
      );
      await rescreen();
      const down = (await alertsOf(org.orgId)).filter((a) => !seen.has(a.id));
      assert.equal(down.length, 1, 'only the Sidorov monitor alerts');
      assert.equal(down[0]!.old_risk_level, 'high');
      assert.equal(down[0]!.new_risk_level, 'low');
      assert.ok(JSON.parse(down[0]!.reasons).includes('threshold_crossed'));
      assert.equal(down[0]!.entity_id, 'us_ofac:2001', 'the alert names the entity the party matched before');
    });

    it('skips monitors of an organization below Starter, and catches up once it is restored', async () => {
      const setTier = (tier: string) =>
        t.ctx.services.tenants.updateOrganization({ ctx: t.ctx.operator, input: { org: idle.slug, tier } });
      await setTier('free');
      const before = (await alertsOf(idle.orgId)).length;
      await activateRecords(t.ctx, 'us_ofac', [...base.us_ofac, designated]);
      await rescreen();
      assert.equal((await alertsOf(idle.orgId)).length, before, 'no alert while inactive');
      await setTier('starter');
      await rescreen();
      assert.equal((await alertsOf(idle.orgId)).length, before + 1, 'rescreened once restored');
    });

    it('rescreens at least daily even when no list changes', async () => {
      const clock = t.clock as ManualClock;
      const db = t.ctx.database.db;
      const stamp = async () =>
        (
          await db
            .selectFrom('monitors')
            .select(['last_screened_at'])
            .where('org_id', '=', org.orgId)
            .where('removed_at', 'is', null)
            .execute()
        ).map((r) => r.last_screened_at);
      const first = await rescreen();
      assert.equal(first?.rescreened ?? 0, 0, 'nothing due');
      clock.advance(24 * 60 * 60 * 1000 + 1000);
      const report = await rescreen();
      const count = (await stamp()).length;
      assert.equal(
        report?.rescreened,
        count +
          (
            await db
              .selectFrom('monitors')
              .select('id')
              .where('org_id', '!=', org.orgId)
              .where('removed_at', 'is', null)
              .execute()
          ).length,
      );
      assert.ok((await stamp()).every((s) => s === clock.now().toISOString()));
      assert.equal(report?.alerts, 0);
    });
  });
}
