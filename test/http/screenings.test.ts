import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import { ENGINES, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { GENEROUS_LIMITS, assertCommonHeaders, assertError, loadSampleLists } from '../helpers/http-assert.js';

/** GET /screenings and GET /screenings/{id}: api-v1.md 4.2, 4.3 and DECISIONS.md "Validation". */

interface Made {
  id: string;
  query: string;
  riskLevel: string;
  timestamp: string;
}

const HOUR = 60 * 60 * 1000;

for (const { engine, skip } of ENGINES) {
  describe(`GET /v1/screenings and /v1/screenings/{id} (${engine})`, { skip }, () => {
    let t: TestApp;
    let clock: ManualClock;
    let org: SeededOrg;
    let other: SeededOrg;
    let versions: { us_ofac: string; un_csl: string };
    const made: Made[] = [];
    let otherId: string;

    // Three days of screenings: listed and innocent names, 25 in all, one hour apart.
    const names = [
      'Rustam Karimov',
      'Margaret Whitfield',
      'Zarya Shipping LLC',
      'Oliver Brennan',
      'Blue Horizon Trading FZE',
    ];

    before(async () => {
      clock = new ManualClock('2026-02-01T08:00:00.000Z');
      t = await startTestApp(engine, { clock, env: GENEROUS_LIMITS });
      org = await seedOrg(t.ctx);
      other = await seedOrg(t.ctx);
      versions = await loadSampleLists(t.ctx);
      for (let i = 0; i < 25; i++) {
        if (i === 9 || i === 18)
          clock.set(new Date(Date.parse(clock.now().toISOString().slice(0, 10)) + 24 * HOUR + 8 * HOUR));
        const name = names[i % names.length] as string;
        const res = await t.request('POST', '/v1/screen', { key: org.key, body: { name } });
        assert.equal(res.status, 200, res.text);
        made.push({
          id: res.body.data.screeningId,
          query: name,
          riskLevel: res.body.data.riskLevel,
          timestamp: clock.now().toISOString(),
        });
        clock.advance(HOUR);
      }
      const theirs = await t.request('POST', '/v1/screen', { key: other.key, body: { name: 'Rustam Karimov' } });
      otherId = theirs.body.data.screeningId;
    });
    after(async () => t?.close());

    const list = (query = '', key = org.key) => t.request('GET', `/v1/screenings${query}`, { key });
    const newestFirst = () => [...made].reverse();

    it('default page: 20 newest first, with meta.pagination', async () => {
      const res = await list();
      assert.equal(res.status, 200, res.text);
      assertCommonHeaders(res);
      assert.equal(res.body.success, true);
      assert.deepEqual(res.body.meta.pagination, { page: 1, pageSize: 20, total: 25, totalPages: 2 });
      assert.deepEqual(
        res.body.data.map((s: { id: string }) => s.id),
        newestFirst()
          .slice(0, 20)
          .map((m) => m.id),
      );
      const first = res.body.data[0];
      assert.deepEqual(
        Object.keys(first).sort(),
        [
          'entityId',
          'entityName',
          'externalId',
          'id',
          'isMonitored',
          'matchedSources',
          'query',
          'riskLevel',
          'riskScore',
          'timestamp',
        ].sort(),
      );
      assert.equal(first.timestamp, made[24]?.timestamp);
    });

    it('page 2 holds the rest; a page past the end is empty', async () => {
      const two = await list('?page=2');
      assert.deepEqual(two.body.meta.pagination, { page: 2, pageSize: 20, total: 25, totalPages: 2 });
      assert.deepEqual(
        two.body.data.map((s: { id: string }) => s.id),
        newestFirst()
          .slice(20)
          .map((m) => m.id),
      );
      const past = await list('?page=3');
      assert.equal(past.status, 200);
      assert.deepEqual(past.body.data, []);
      assert.equal(past.body.meta.pagination.total, 25);
    });

    it('pageSize 7 pages through every screening exactly once', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 4; page++) {
        const res = await list(`?page=${page}&pageSize=7`);
        assert.equal(res.body.meta.pagination.totalPages, 4);
        seen.push(...res.body.data.map((s: { id: string }) => s.id));
      }
      assert.deepEqual(
        seen,
        newestFirst().map((m) => m.id),
      );
    });

    it('pageSize 100 is allowed; 101, 0, a fraction and text are 400 naming pageSize', async () => {
      const max = await list('?pageSize=100');
      assert.equal(max.status, 200);
      assert.equal(max.body.data.length, 25);
      for (const bad of ['101', '0', '2.5', 'ten', '-1']) {
        assertError(await list(`?pageSize=${bad}`), 400, 'VALIDATION_ERROR', { field: 'pageSize' });
      }
    });

    it('page 0 and negative pages are 400 naming page', async () => {
      for (const bad of ['0', '-2', 'first']) {
        assertError(await list(`?page=${bad}`), 400, 'VALIDATION_ERROR', { field: 'page' });
      }
    });

    it('riskLevel filters, and counts agree with what was screened', async () => {
      for (const level of ['low', 'medium', 'high']) {
        const expected = made
          .filter((m) => m.riskLevel === level)
          .map((m) => m.id)
          .reverse();
        const res = await list(`?riskLevel=${level}&pageSize=100`);
        assert.equal(res.status, 200);
        assert.equal(res.body.meta.pagination.total, expected.length);
        assert.deepEqual(
          res.body.data.map((s: { id: string }) => s.id),
          expected,
        );
      }
      assert.ok(
        made.some((m) => m.riskLevel === 'high') && made.some((m) => m.riskLevel === 'low'),
        'the fixture has both levels',
      );
      assertError(await list('?riskLevel=severe'), 400, 'VALIDATION_ERROR', { field: 'riskLevel' });
      assertError(await list('?riskLevel=HIGH'), 400, 'VALIDATION_ERROR', { field: 'riskLevel' });
    });

    it('dateFrom and dateTo: bare dates cover whole UTC days; date-times are exact', async () => {
      const day = (d: string) =>
        made
          .filter((m) => m.timestamp.startsWith(d))
          .map((m) => m.id)
          .reverse();
      assert.deepEqual([day('2026-02-01').length, day('2026-02-02').length, day('2026-02-03').length], [9, 9, 7]);

      const second = await list('?dateFrom=2026-02-02&dateTo=2026-02-02&pageSize=100');
      assert.equal(second.status, 200, second.text);
      assert.deepEqual(
        second.body.data.map((s: { id: string }) => s.id),
        day('2026-02-02'),
      );

      const fromSecond = await list('?dateFrom=2026-02-02&pageSize=100');
      assert.deepEqual(
        fromSecond.body.data.map((s: { id: string }) => s.id),
        [...day('2026-02-03'), ...day('2026-02-02')],
      );

      const toFirst = await list('?dateTo=2026-02-01&pageSize=100');
      assert.deepEqual(
        toFirst.body.data.map((s: { id: string }) => s.id),
        day('2026-02-01'),
      );

      // 2026-02-01 08:00 .. 16:00 are the first day's nine screenings; from 10:00 to 12:00 inclusive is three.
      const exact = await list(
        `?dateFrom=${encodeURIComponent('2026-02-01T10:00:00Z')}&dateTo=${encodeURIComponent('2026-02-01T12:00:00.000Z')}`,
      );
      assert.deepEqual(
        exact.body.data.map((s: { id: string }) => s.id),
        made
          .filter((m) => m.timestamp >= '2026-02-01T10:00:00.000Z' && m.timestamp <= '2026-02-01T12:00:00.000Z')
          .map((m) => m.id)
          .reverse(),
      );
      assert.equal(exact.body.data.length, 3);

      const offset = await list(`?dateFrom=${encodeURIComponent('2026-02-03T09:00:00+01:00')}&pageSize=100`);
      assert.deepEqual(
        offset.body.data.map((s: { id: string }) => s.id),
        made
          .filter((m) => m.timestamp >= '2026-02-03T08:00:00.000Z')
          .map((m) => m.id)
          .reverse(),
      );

      const empty = await list('?dateFrom=2026-03-01');
      assert.equal(empty.body.meta.pagination.total, 0);
    });

    it('invalid dates are 400 naming the field', async () => {
      for (const bad of ['yesterday', '2026-13-01', '2026-02-30', '01/02/2026', '2026-02-01T10:00']) {
        assertError(await list(`?dateFrom=${encodeURIComponent(bad)}`), 400, 'VALIDATION_ERROR', { field: 'dateFrom' });
        assertError(await list(`?dateTo=${encodeURIComponent(bad)}`), 400, 'VALIDATION_ERROR', { field: 'dateTo' });
      }
    });

    it('search is a case-insensitive match on the screened name', async () => {
      const expected = made
        .filter((m) => m.query.toLowerCase().includes('karimov'))
        .map((m) => m.id)
        .reverse();
      assert.equal(expected.length, 5);
      for (const term of ['karimov', 'KARIMOV', 'KaRiMoV', ' karimov ']) {
        const res = await list(`?search=${encodeURIComponent(term)}&pageSize=100`);
        assert.deepEqual(
          res.body.data.map((s: { id: string }) => s.id),
          expected,
          term,
        );
      }
      const none = await list(`?search=${encodeURIComponent('100%_nobody')}`);
      assert.equal(none.body.meta.pagination.total, 0);
      // Combined with a filter.
      const lowKarimov = await list('?search=karimov&riskLevel=low');
      assert.equal(lowKarimov.body.meta.pagination.total, 0);
    });

    it("another organization's screenings are never listed", async () => {
      const mine = await list('?pageSize=100');
      assert.ok(!mine.body.data.some((s: { id: string }) => s.id === otherId));
      const theirs = await list('?pageSize=100', other.key);
      assert.deepEqual(
        theirs.body.data.map((s: { id: string }) => s.id),
        [otherId],
      );
      assert.equal(theirs.body.meta.pagination.total, 1);
    });

    it('GET /screenings/{id}: the full record with sources, list versions and explanations', async () => {
      const target = made.find((m) => m.query === 'Rustam Karimov') as Made;
      const res = await t.request('GET', `/v1/screenings/${target.id}`, { key: org.key });
      assert.equal(res.status, 200, res.text);
      assertCommonHeaders(res);
      const r = res.body.data;
      assert.equal(r.id, target.id);
      assert.equal(r.query, 'Rustam Karimov');
      assert.equal(r.timestamp, target.timestamp);
      assert.equal(r.riskLevel, target.riskLevel);
      assert.equal(r.country, null);
      assert.equal(r.birthDate, null);
      assert.equal(r.isMonitored, false);
      assert.deepEqual([...r.usedSources].sort(), ['un_csl', 'us_ofac']);
      assert.deepEqual([...r.matchedSources].sort(), ['un_csl', 'us_ofac']);
      const byVersion = new Map(
        r.listVersions.map((v: { source: string; version: string; records: number }) => [v.source, v]),
      );
      assert.equal((byVersion.get('us_ofac') as { version: string }).version, versions.us_ofac);
      assert.equal((byVersion.get('un_csl') as { version: string }).version, versions.un_csl);
      assert.equal((byVersion.get('us_ofac') as { records: number }).records, 3);
      assert.ok(r.matchDetails.length >= 2);
      for (const m of r.matchDetails) {
        assert.equal(typeof m.explanation.summary, 'string');
        assert.ok(m.explanation.alignment.length > 0);
      }
      // The same record as POST /screen returned.
      assert.equal(typeof r.entityId, 'string');
      assert.equal(typeof r.confidence, 'number');
    });

    it('GET /screenings/{id} keeps the filters as supplied', async () => {
      const res = await t.request('POST', '/v1/screen', {
        key: org.key,
        body: { name: 'Rustam Karimov', country: 'uz', birthDate: '1961-04-12', entityType: 'person' },
      });
      const record = await t.request('GET', `/v1/screenings/${res.body.data.screeningId}`, { key: org.key });
      assert.equal(record.body.data.country, 'UZ');
      assert.equal(record.body.data.birthDate, '1961-04-12');
      assert.equal(record.body.data.entityType, 'person');
      assert.deepEqual(record.body.data.matchDetails, res.body.data.matchDetails);
      assert.equal(record.body.data.riskScore, res.body.data.riskScore);
    });

    it("another organization's screening is a 404, like an unknown id", async () => {
      assertError(await t.request('GET', `/v1/screenings/${otherId}`, { key: org.key }), 404, 'NOT_FOUND');
      assertError(
        await t.request('GET', '/v1/screenings/scr_00000000000000000000000000', { key: org.key }),
        404,
        'NOT_FOUND',
      );
      assertError(await t.request('GET', '/v1/screenings/not-an-id', { key: org.key }), 404, 'NOT_FOUND');
      const theirs = await t.request('GET', `/v1/screenings/${otherId}`, { key: other.key });
      assert.equal(theirs.status, 200);
    });
  });
}
