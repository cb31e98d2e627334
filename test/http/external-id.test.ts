import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import { ENGINES, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { GENEROUS_LIMITS, assertError, loadSampleLists } from '../helpers/http-assert.js';

/** The customer reference `externalId` (issue 13, item 1) on POST /screen, GET /screenings and POST /monitors. */

for (const { engine, skip } of ENGINES) {
  describe(`externalId (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    let other: SeededOrg;
    const clock = new ManualClock('2026-03-01T09:00:00.000Z');

    before(async () => {
      t = await startTestApp(engine, { env: GENEROUS_LIMITS, clock });
      org = await seedOrg(t.ctx);
      other = await seedOrg(t.ctx);
      await loadSampleLists(t.ctx);
    });
    after(async () => t?.close());

    const screen = (body: Record<string, unknown>, key = org.key, headers: Record<string, string> = {}) => {
      clock.advance(1000);
      return t.request('POST', '/v1/screen', { key, body, headers });
    };

    it('is stored trimmed and returned by GET /screenings/{id} and in the list; absent is null', async () => {
      const res = await screen({ name: 'Rustam Karimov', externalId: '  cust-4711  ' });
      assert.equal(res.status, 200, res.text);
      const id = res.body.data.screeningId;
      const record = await t.request('GET', `/v1/screenings/${id}`, { key: org.key });
      assert.equal(record.body.data.externalId, 'cust-4711');
      const without = await screen({ name: 'Rustam Karimov' });
      const bare = await t.request('GET', `/v1/screenings/${without.body.data.screeningId}`, { key: org.key });
      assert.equal(bare.body.data.externalId, null);
      const listed = await t.request('GET', '/v1/screenings?pageSize=100', { key: org.key });
      const byId = new Map(
        listed.body.data.map((s: { id: string; externalId: string | null }) => [s.id, s.externalId]),
      );
      assert.equal(byId.get(id), 'cust-4711');
      assert.equal(byId.get(without.body.data.screeningId), null);
    });

    it('filters GET /screenings exactly, combined with other filters, never across organizations', async () => {
      const a1 = await screen({ name: 'Zarya Shipping LLC', externalId: 'filter-A' });
      const a2 = await screen({ name: 'Margaret Whitfield', externalId: 'filter-A' });
      await screen({ name: 'Zarya Shipping LLC', externalId: 'filter-AB' });
      await screen({ name: 'Zarya Shipping LLC', externalId: 'filter-A' }, other.key);
      const res = await t.request('GET', '/v1/screenings?externalId=filter-A', { key: org.key });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.data.map((s: { id: string }) => s.id),
        [a2.body.data.screeningId, a1.body.data.screeningId],
      );
      assert.equal(res.body.meta.pagination.total, 2);
      const high = await t.request('GET', `/v1/screenings?externalId=filter-A&riskLevel=${a1.body.data.riskLevel}`, {
        key: org.key,
      });
      assert.deepEqual(
        high.body.data.map((s: { id: string }) => s.id),
        [a1.body.data.screeningId],
      );
      const none = await t.request('GET', '/v1/screenings?externalId=nobody', { key: org.key });
      assert.equal(none.body.meta.pagination.total, 0);
      const theirs = await t.request('GET', '/v1/screenings?externalId=filter-A', { key: other.key });
      assert.equal(theirs.body.meta.pagination.total, 1);
    });

    it('rejects an empty, blank, too long or non-string externalId with VALIDATION_ERROR naming it', async () => {
      for (const bad of ['', '   ', 'x'.repeat(201), 42, null]) {
        assertError(await screen({ name: 'Rustam Karimov', externalId: bad }), 400, 'VALIDATION_ERROR', {
          field: 'externalId',
        });
      }
      // 200 characters after trimming is the limit; characters, not bytes.
      const ok = await screen({ name: 'Rustam Karimov', externalId: ` ${'é'.repeat(200)} ` });
      assert.equal(ok.status, 200, ok.text);
    });

    it('is part of the idempotency comparison', async () => {
      const first = await screen({ name: 'Rustam Karimov', externalId: 'idem-1' }, org.key, {
        'Idempotency-Key': 'ext-idem',
      });
      assert.equal(first.status, 200, first.text);
      const replay = await screen({ name: 'Rustam Karimov', externalId: ' idem-1 ' }, org.key, {
        'Idempotency-Key': 'ext-idem',
      });
      assert.equal(replay.status, 200);
      assert.equal(replay.headers.get('idempotency-replayed'), 'true');
      assert.equal(replay.body.data.screeningId, first.body.data.screeningId);
      for (const body of [{ name: 'Rustam Karimov', externalId: 'idem-2' }, { name: 'Rustam Karimov' }]) {
        assertError(await screen(body, org.key, { 'Idempotency-Key': 'ext-idem' }), 422, 'IDEMPOTENCY_KEY_MISMATCH');
      }
    });

    it("POST /monitors takes its own externalId, else the screening's, and returns it in GET /monitors", async () => {
      const withRef = await screen({ name: 'Blue Horizon Trading FZE', externalId: 'from-screening' });
      const inherited = await t.request('POST', '/v1/monitors', {
        key: org.key,
        body: { screeningId: withRef.body.data.screeningId },
      });
      assert.equal(inherited.status, 201, inherited.text);
      assert.equal(inherited.body.data.externalId, 'from-screening');

      const plain = await screen({ name: 'Oliver Brennan' });
      const given = await t.request('POST', '/v1/monitors', {
        key: org.key,
        body: { screeningId: plain.body.data.screeningId, externalId: ' monitor-ref ' },
      });
      assert.equal(given.status, 201, given.text);
      assert.equal(given.body.data.externalId, 'monitor-ref');

      const listed = await t.request('GET', '/v1/monitors?pageSize=100', { key: org.key });
      const refs = new Map(
        listed.body.data.map((m: { id: string; externalId: string | null }) => [m.id, m.externalId]),
      );
      assert.equal(refs.get(inherited.body.data.id), 'from-screening');
      assert.equal(refs.get(given.body.data.id), 'monitor-ref');

      const another = await screen({ name: 'Margaret Whitfield', country: 'GB' });
      for (const bad of ['', 'y'.repeat(201), 7]) {
        assertError(
          await t.request('POST', '/v1/monitors', {
            key: org.key,
            body: { screeningId: another.body.data.screeningId, externalId: bad },
          }),
          400,
          'VALIDATION_ERROR',
          { field: 'externalId' },
        );
      }
    });
  });
}
