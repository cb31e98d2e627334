import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { ENGINES, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { GENEROUS_LIMITS, assertCommonHeaders, assertError, loadSampleLists } from '../helpers/http-assert.js';

/** The envelope and the generic HTTP errors (api-v1.md 2.1, section 7; DECISIONS.md "Status codes", "Validation"). */
for (const { engine, skip } of ENGINES) {
  describe(`envelope and request errors (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    before(async () => {
      t = await startTestApp(engine, { env: GENEROUS_LIMITS });
      org = await seedOrg(t.ctx);
      await loadSampleLists(t.ctx);
    });
    after(async () => t?.close());

    const screen = (body: unknown) => t.request('POST', '/v1/screen', { key: org.key, body });

    it('a success carries success true and data, and the common headers', async () => {
      const res = await screen({ name: 'Margaret Thompson' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['data', 'success']);
      assert.equal(res.body.success, true);
      assertCommonHeaders(res);
      // Request ids are unique per request.
      const again = await screen({ name: 'Margaret Thompson' });
      assert.notEqual(again.headers.get('x-request-id'), res.headers.get('x-request-id'));
    });

    it('errors the router raises before a route runs come in the envelope with X-Request-Id', async () => {
      // A malformed percent-encoding in the path (Fastify answers its own body without a handler).
      const badUrl = await t.request('GET', '/v1/monitors/%ff', { key: org.key });
      assertError(badUrl, 400, 'BAD_REQUEST', { rateLimit: false });
      assert.match(badUrl.body.error.message, /percent-encoding/);
      // A path parameter longer than the router reads.
      const longId = await t.request('GET', `/v1/screenings/scr_${'x'.repeat(300)}`, { key: org.key });
      assertError(longId, 400, 'VALIDATION_ERROR', { field: 'path', rateLimit: false });
      assert.match(longId.body.error.message, /longer than 100 characters/);
      // One character under the limit is routed as usual: an unknown screening.
      const routed = await t.request('GET', `/v1/screenings/scr_${'x'.repeat(96)}`, { key: org.key });
      assert.equal(routed.status, 404, routed.text);
      assert.notEqual(badUrl.headers.get('x-request-id'), longId.headers.get('x-request-id'));
    });

    it('invalid JSON: 400 BAD_REQUEST', async () => {
      const headers = { 'content-type': 'application/json' };
      assertError(
        await t.request('POST', '/v1/screen', { key: org.key, raw: '{"name": "x",', headers }),
        400,
        'BAD_REQUEST',
      );
      assertError(
        await t.request('POST', '/v1/screen', { key: org.key, raw: "{'name': 'x'}", headers }),
        400,
        'BAD_REQUEST',
      );
      assertError(await t.request('POST', '/v1/screen', { key: org.key, raw: '', headers }), 400, 'BAD_REQUEST');
    });

    it('a body that is JSON but not an object: 400 naming the body', async () => {
      const res = await screen(['Rustam Karimov']);
      assert.equal(res.status, 400, res.text);
      assert.ok(['VALIDATION_ERROR', 'BAD_REQUEST'].includes(res.body.error.code));
      assertCommonHeaders(res);
    });

    const invalid: [string, unknown, string][] = [
      ['missing name', {}, 'name'],
      ['missing name with other fields', { country: 'RU' }, 'name'],
      ['empty name', { name: '' }, 'name'],
      ['blank name', { name: '   \t ' }, 'name'],
      ['501-character name', { name: 'a'.repeat(501) }, 'name'],
      ['numeric name', { name: 123 }, 'name'],
      ['null name', { name: null }, 'name'],
      ['array name', { name: ['Rustam', 'Karimov'] }, 'name'],
      ['unknown entityType', { name: 'x', entityType: 'company' }, 'entityType'],
      ['entityType in capitals', { name: 'x', entityType: 'PERSON' }, 'entityType'],
      ['three-letter country', { name: 'x', country: 'USA' }, 'country'],
      ['unassigned country code', { name: 'x', country: 'ZZ' }, 'country'],
      ['country name', { name: 'x', country: 'Russia' }, 'country'],
      ['UK instead of GB', { name: 'x', country: 'UK' }, 'country'],
      ['EU is not a country', { name: 'x', country: 'EU' }, 'country'],
      ['numeric country', { name: 'x', country: 76 }, 'country'],
      ['month 13', { name: 'x', birthDate: '1990-13-01' }, 'birthDate'],
      ['US date format', { name: 'x', birthDate: '12/01/1990' }, 'birthDate'],
      ['February 30th', { name: 'x', birthDate: '1990-02-30' }, 'birthDate'],
      ['date-time as birthDate', { name: 'x', birthDate: '1990-01-01T00:00:00Z' }, 'birthDate'],
      ['string groupByCluster', { name: 'x', groupByCluster: 'yes' }, 'groupByCluster'],
    ];
    for (const [label, body, field] of invalid) {
      it(`400 VALIDATION_ERROR naming ${field}: ${label}`, async () => {
        assertError(await screen(body), 400, 'VALIDATION_ERROR', { field });
      });
    }

    it('accepts a 500-character name (the boundary) and a lower-case country', async () => {
      const res = await screen({ name: 'b'.repeat(500), country: 'gb' });
      assert.equal(res.status, 200, res.text);
    });

    it('rejected requests are not stored', async () => {
      const before = await t.request('GET', '/v1/screenings', { key: org.key });
      await screen({ name: '' });
      await screen({ name: 'x', country: 'ZZ' });
      const after = await t.request('GET', '/v1/screenings', { key: org.key });
      assert.equal(after.body.meta.pagination.total, before.body.meta.pagination.total);
    });

    it('unknown route: 404 NOT_FOUND in the envelope, under /v1 and outside it', async () => {
      assertError(await t.request('GET', '/v1/nothing-here', { key: org.key }), 404, 'NOT_FOUND');
      assertError(await t.request('POST', '/v1/screenings/x/y', { key: org.key, body: {} }), 404, 'NOT_FOUND');
      assertError(await t.request('GET', '/nothing-here'), 404, 'NOT_FOUND');
    });

    it('wrong method on a known route: 405 with Allow', async () => {
      const a = await t.request('GET', '/v1/screen', { key: org.key });
      assertError(a, 405, 'METHOD_NOT_ALLOWED');
      assert.equal(a.headers.get('allow'), 'POST');
      const b = await t.request('DELETE', '/v1/screenings', { key: org.key });
      assertError(b, 405, 'METHOD_NOT_ALLOWED');
      assert.equal(b.headers.get('allow'), 'GET');
      const c = await t.request('PUT', '/v1/screenings/scr_123', { key: org.key, body: { name: 'x' } });
      assertError(c, 405, 'METHOD_NOT_ALLOWED');
      assert.equal(c.headers.get('allow'), 'GET');
      const d = await t.request('PATCH', '/v1/monitors', { key: org.key, body: {} });
      assertError(d, 405, 'METHOD_NOT_ALLOWED');
      assert.deepEqual(d.headers.get('allow')?.split(/,\s*/).sort(), ['GET', 'POST']);
    });

    it('body over 64 KiB: 413', async () => {
      const res = await screen({ name: 'Rustam Karimov', padding: 'x'.repeat(64 * 1024) });
      assertError(res, 413, 'PAYLOAD_TOO_LARGE');
      // Just under the limit is read (and the unknown field ignored).
      const under = await screen({ name: 'Rustam Karimov', padding: 'x'.repeat(60 * 1024) });
      assert.equal(under.status, 200, under.text.slice(0, 300));
    });

    it('POST with a non-JSON content type: 415', async () => {
      const plain = await t.request('POST', '/v1/screen', {
        key: org.key,
        raw: '{"name":"x"}',
        headers: { 'content-type': 'text/plain' },
      });
      assertError(plain, 415, 'UNSUPPORTED_MEDIA_TYPE');
      const form = await t.request('POST', '/v1/screen', {
        key: org.key,
        raw: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assertError(form, 415, 'UNSUPPORTED_MEDIA_TYPE');
      const none = await t.request('POST', '/v1/screen', { key: org.key });
      assertError(none, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('accepts application/json with a charset', async () => {
      const res = await t.request('POST', '/v1/screen', {
        key: org.key,
        raw: JSON.stringify({ name: 'Margaret Thompson' }),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      assert.equal(res.status, 200, res.text);
    });

    it('unknown body fields are ignored and never stored', async () => {
      const marker = 'mass-assignment-marker-7f3a';
      const res = await screen({
        name: 'Zarya Shipping',
        org_id: marker,
        riskScore: 0,
        screeningId: marker,
        extra: { deep: marker },
      });
      assert.equal(res.status, 200, res.text);
      assert.notEqual(res.body.data.screeningId, marker);
      assert.doesNotMatch(res.text, new RegExp(marker));
      const record = await t.request('GET', `/v1/screenings/${res.body.data.screeningId}`, { key: org.key });
      assert.equal(record.status, 200);
      assert.doesNotMatch(record.text, new RegExp(marker));
      const row = await t.ctx.database.db
        .selectFrom('screenings')
        .selectAll()
        .where('id', '=', res.body.data.screeningId)
        .executeTakeFirstOrThrow();
      assert.equal(row.org_id, org.orgId);
      assert.doesNotMatch(JSON.stringify(row), new RegExp(marker));
    });
  });

  describe(`500 (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    before(async () => {
      t = await startTestApp(engine);
      org = await seedOrg(t.ctx);
      await loadSampleLists(t.ctx);
      // A table the screening needs disappears under the running server: the insert fails.
      await sql`drop table screenings`.execute(t.ctx.database.db);
    });
    after(async () => t?.close());

    it('an internal failure is a 500 INTERNAL_ERROR in the envelope, without internal details', async () => {
      const res = await t.request('POST', '/v1/screen', { key: org.key, body: { name: 'Rustam Karimov' } });
      assertError(res, 500, 'INTERNAL_ERROR');
      assert.doesNotMatch(res.text, /screenings|table|relation|sqlite|postgres|SQL/i);
      assert.deepEqual(Object.keys(res.body.error).sort(), ['code', 'message']);
    });

    it('a failed request keeps no idempotency claim behind', async () => {
      const res = await t.request('POST', '/v1/screen', {
        key: org.key,
        body: { name: 'Rustam Karimov' },
        headers: { 'Idempotency-Key': 'fails-inside' },
      });
      assertError(res, 500, 'INTERNAL_ERROR');
      const rows = await t.ctx.database.db
        .selectFrom('idempotency_keys')
        .select('key')
        .where('org_id', '=', org.orgId)
        .execute();
      assert.equal(rows.length, 0);
    });
  });
}
