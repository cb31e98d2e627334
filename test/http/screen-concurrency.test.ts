import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ENGINES, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { GENEROUS_LIMITS, loadSampleLists } from '../helpers/http-assert.js';

/**
 * Many screenings at once from several organizations: group commit runs two batches at a time, each
 * with several organizations' usage rows, so batches must lock those rows in one order (a deadlock
 * would fail a whole batch), and every screening must be stored and counted exactly once.
 */
for (const { engine, skip } of ENGINES) {
  describe(`POST /v1/screen under concurrency (${engine})`, { skip }, () => {
    let t: TestApp;
    let orgs: SeededOrg[];
    before(async () => {
      t = await startTestApp(engine, { env: GENEROUS_LIMITS });
      orgs = [];
      for (let i = 0; i < 4; i++) orgs.push(await seedOrg(t.ctx, { tier: 'enterprise' }));
      await loadSampleLists(t.ctx);
    });
    after(async () => t?.close());

    it('300 concurrent screenings from four organizations: all answered 200, all stored, each counted once', async () => {
      const names = ['Rustam Karimov', 'Zarya Shipping', 'Maria Lopez', 'Blue Horizon Trading'];
      // Organizations interleaved in opposite orders, so that two batches meet each other's rows.
      const plan = Array.from({ length: 300 }, (_, i) => orgs[(i % 2 === 0 ? i : 300 - i) % orgs.length]!);
      const responses = await Promise.all(
        plan.map((org, i) =>
          t.request('POST', '/v1/screen', { key: org.key, body: { name: names[i % names.length] } }),
        ),
      );
      for (const res of responses) assert.equal(res.status, 200, res.text);
      const ids = new Set(responses.map((r) => r.body.data.screeningId as string));
      assert.equal(ids.size, 300);
      for (const org of orgs) {
        const expected = plan.filter((o) => o === org).length;
        const listed = await t.request('GET', '/v1/screenings?pageSize=1', { key: org.key });
        assert.equal(listed.body.meta.pagination.total, expected, `stored screenings of ${org.slug}`);
        const usage = await t.ctx.database.db
          .selectFrom('usage')
          .select('count')
          .where('org_id', '=', org.orgId)
          .execute();
        assert.equal(
          usage.reduce((sum, r) => sum + Number(r.count), 0),
          expected,
          `quota units of ${org.slug}`,
        );
      }
    });
  });
}
