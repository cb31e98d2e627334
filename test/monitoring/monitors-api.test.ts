import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ENGINES,
  type SeededOrg,
  type TestApp,
  activateRecords,
  sampleRecords,
  seedOrg,
  startTestApp,
} from '../helpers/harness.js';

for (const { engine, skip } of ENGINES) {
  describe(`monitors API (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    let other: SeededOrg;
    const screenOf = async (who: SeededOrg, body: Record<string, unknown>) => {
      const res = await t.request('POST', '/v1/screen', { key: who.key, body });
      assert.equal(res.status, 200, res.text);
      return res.body.data as {
        screeningId: string;
        isMonitored: boolean;
        riskScore: number;
        entityName: string | null;
      };
    };

    before(async () => {
      t = await startTestApp(engine);
      org = await seedOrg(t.ctx, { tier: 'starter' });
      other = await seedOrg(t.ctx);
      const records = sampleRecords();
      await activateRecords(t.ctx, 'us_ofac', records.us_ofac);
      await activateRecords(t.ctx, 'un_csl', records.un_csl);
    });
    after(async () => t?.close());

    it('creates a monitor (201, isNew, default threshold 55, the screening state) and marks later screenings monitored', async () => {
      const s = await screenOf(org, { name: 'Rustam Karimov', birthDate: '1961-04-12' });
      assert.equal(s.isMonitored, false);
      const res = await t.request('POST', '/v1/monitors', { key: org.key, body: { screeningId: s.screeningId } });
      assert.equal(res.status, 201, res.text);
      const m = res.body.data;
      assert.match(m.id, /^mon_/);
      assert.equal(m.screeningId, s.screeningId);
      assert.equal(m.isNew, true);
      assert.equal(m.isActive, true);
      assert.equal(m.riskThreshold, 55);
      assert.equal(m.lastRiskScore, s.riskScore);
      assert.equal(m.entityName, s.entityName);
      assert.ok(!Number.isNaN(Date.parse(m.createdAt)));
      // Same search with other spacing and letter case: monitored.
      const again = await screenOf(org, { name: '  rustam   KARIMOV ', birthDate: '1961-04-12' });
      assert.equal(again.isMonitored, true);
      const fetched = await t.request('GET', `/v1/screenings/${s.screeningId}`, { key: org.key });
      assert.equal(fetched.body.data.isMonitored, true);
      // Another organization's screenings of the same search are not monitored.
      const theirs = await screenOf(other, { name: 'Rustam Karimov', birthDate: '1961-04-12' });
      assert.equal(theirs.isMonitored, false);
    });

    it('answers 409 CONFLICT for the same search, also from another screening of it', async () => {
      const first = await screenOf(org, { name: 'Zarya Shipping LLC', entityType: 'business' });
      const created = await t.request('POST', '/v1/monitors', {
        key: org.key,
        body: { screeningId: first.screeningId, riskThreshold: 70 },
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.data.riskThreshold, 70);
      const second = await screenOf(org, { name: 'ZARYA  shipping llc', entityType: 'organization' });
      const res = await t.request('POST', '/v1/monitors', { key: org.key, body: { screeningId: second.screeningId } });
      assert.equal(res.status, 409);
      assert.equal(res.body.error.code, 'CONFLICT');
      // A different filter is a different search.
      const withCountry = await screenOf(org, {
        name: 'Zarya Shipping LLC',
        entityType: 'organization',
        country: 'RU',
      });
      const ok = await t.request('POST', '/v1/monitors', {
        key: org.key,
        body: { screeningId: withCountry.screeningId },
      });
      assert.equal(ok.status, 201, ok.text);
    });

    it("answers 404 for an unknown screening and for another organization's screening", async () => {
      const unknown = await t.request('POST', '/v1/monitors', {
        key: org.key,
        body: { screeningId: 'scr_doesnotexist' },
      });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error.code, 'NOT_FOUND');
      const theirs = await screenOf(other, { name: 'Blue Horizon Trading' });
      const foreign = await t.request('POST', '/v1/monitors', {
        key: org.key,
        body: { screeningId: theirs.screeningId },
      });
      assert.equal(foreign.status, 404);
    });

    it('rejects riskThreshold outside 0..100 or not a number with VALIDATION_ERROR naming it', async () => {
      const s = await screenOf(org, { name: 'Somebody Clean' });
      for (const riskThreshold of [-1, 100.5, 'high', null]) {
        const res = await t.request('POST', '/v1/monitors', {
          key: org.key,
          body: { screeningId: s.screeningId, riskThreshold },
        });
        assert.equal(res.status, 400, `${JSON.stringify(riskThreshold)}: ${res.text}`);
        assert.equal(res.body.error.code, 'VALIDATION_ERROR');
        assert.match(res.body.error.message, /riskThreshold/);
      }
      const missing = await t.request('POST', '/v1/monitors', { key: org.key, body: {} });
      assert.equal(missing.status, 400);
      assert.match(missing.body.error.message, /screeningId/);
      for (const riskThreshold of [0, 100]) {
        const name = `Edge Case ${riskThreshold}`;
        const edge = await screenOf(org, { name });
        const res = await t.request('POST', '/v1/monitors', {
          key: org.key,
          body: { screeningId: edge.screeningId, riskThreshold },
        });
        assert.equal(res.status, 201, res.text);
        assert.equal(res.body.data.riskThreshold, riskThreshold);
      }
    });

    it("lists monitors newest first with pagination, only the organization's own", async () => {
      const page1 = await t.request('GET', '/v1/monitors?page=1&pageSize=2', { key: org.key });
      assert.equal(page1.status, 200, page1.text);
      const total = page1.body.meta.pagination.total;
      const all = await t.request('GET', '/v1/monitors?pageSize=100', { key: org.key });
      assert.equal(all.body.data.length, total);
      assert.equal(page1.body.data.length, Math.min(2, total));
      assert.equal(page1.body.meta.pagination.totalPages, Math.ceil(total / 2));
      assert.deepEqual(
        page1.body.data.map((m: { id: string }) => m.id),
        all.body.data.slice(0, 2).map((m: { id: string }) => m.id),
      );
      const created = all.body.data.map((m: { createdAt: string }) => m.createdAt);
      assert.deepEqual(created, [...created].sort().reverse());
      const item = all.body.data.at(-1);
      for (const field of [
        'id',
        'screeningId',
        'query',
        'entityName',
        'isActive',
        'riskThreshold',
        'lastRiskScore',
        'lastRiskLevel',
        'lastSources',
        'lastScreenedAt',
        'createdAt',
      ]) {
        assert.ok(field in item, `list item has ${field}`);
      }
      const theirs = await t.request('GET', '/v1/monitors', { key: other.key });
      assert.equal(theirs.body.meta.pagination.total, 0);
      const tooBig = await t.request('GET', '/v1/monitors?pageSize=101', { key: org.key });
      assert.equal(tooBig.status, 400);
      assert.match(tooBig.body.error.message, /pageSize/);
    });

    it('removes a monitor ({id, removed: true}); a removed, unknown or foreign monitor is 404; the search can be monitored again', async () => {
      const s = await screenOf(org, { name: 'To Be Removed' });
      const created = await t.request('POST', '/v1/monitors', { key: org.key, body: { screeningId: s.screeningId } });
      const id = created.body.data.id as string;
      const foreign = await t.request('DELETE', `/v1/monitors/${id}`, { key: other.key });
      assert.equal(foreign.status, 404);
      const res = await t.request('DELETE', `/v1/monitors/${id}`, { key: org.key });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.data, { id, removed: true });
      assert.equal((await t.request('DELETE', `/v1/monitors/${id}`, { key: org.key })).status, 404);
      assert.equal((await t.request('DELETE', '/v1/monitors/mon_nothing', { key: org.key })).status, 404);
      assert.equal((await screenOf(org, { name: 'to be removed' })).isMonitored, false);
      const again = await t.request('POST', '/v1/monitors', { key: org.key, body: { screeningId: s.screeningId } });
      assert.equal(again.status, 201);
    });

    it('marks monitors inactive while the organization is below Starter and active again when restored', async () => {
      const { monitors, tenants } = t.ctx.services;
      // The console's view of the monitors: the service called directly, as the API refuses a free tier.
      const list = () =>
        monitors.listMonitors({
          ctx: { ...t.ctx.operator, caller: { orgId: org.orgId } as never },
          input: { page: 1, pageSize: 100 },
        });
      const before = await list();
      assert.ok(before.items.length > 0 && before.items.every((m) => m.isActive === true));
      await tenants.updateOrganization({ ctx: t.ctx.operator, input: { org: org.slug, tier: 'free' } });
      const denied = await t.request('GET', '/v1/monitors', { key: org.key });
      assert.equal(denied.status, 403);
      const during = await list();
      assert.equal(during.items.length, before.items.length);
      assert.ok(during.items.every((m) => m.isActive === false));
      await tenants.updateOrganization({ ctx: t.ctx.operator, input: { org: org.slug, tier: 'starter' } });
      const restored = await t.request('GET', '/v1/monitors?pageSize=100', { key: org.key });
      assert.equal(restored.status, 200);
      assert.ok(restored.body.data.every((m: { isActive: boolean }) => m.isActive === true));
    });
  });
}
