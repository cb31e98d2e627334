import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSanctionsClient, idempotencyKey, type SanctionsClient } from '../../clients/typescript/src/index.js';
import type { ManualClock } from '../../src/infra/clock.js';
import {
  ENGINES,
  type SeededOrg,
  type TestApp,
  activateRecords,
  sampleRecords,
  seedOrg,
  startTestApp,
} from '../helpers/harness.js';

/**
 * The typed client (clients/typescript/, issue 33) against a live server: it screens a name, lists
 * screenings, reads typed errors, and handles 429 as docs/client.md says: it waits the Retry-After
 * the service sent and retries GETs and POSTs that carry an Idempotency-Key, and never repeats a
 * POST /v1/screen without one. Waiting moves the server's clock instead of sleeping.
 */

const LIMIT = 5;

for (const { engine, skip } of ENGINES) {
  describe(`typed TypeScript client against a live server (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    let client: SanctionsClient;
    const retries: { method: string; waitSeconds: number }[] = [];
    const sent: string[] = [];

    before(async () => {
      t = await startTestApp(engine, { env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
      org = await seedOrg(t.ctx);
      const records = sampleRecords();
      await activateRecords(t.ctx, 'us_ofac', records.us_ofac);
      await activateRecords(t.ctx, 'un_csl', records.un_csl);
      client = createSanctionsClient({
        baseUrl: t.url,
        apiKey: org.key,
        fetch: (request) => {
          sent.push(`${request.method} ${new URL(request.url).pathname}`);
          return fetch(request);
        },
        // The service's clock moves instead of the test sleeping.
        sleep: async (ms) => (t.clock as ManualClock).advance(ms),
        onRetry: ({ method, waitSeconds }) => retries.push({ method, waitSeconds }),
      });
    });
    after(async () => t?.close());

    /** A fresh rate-limit window, then `n` requests of it used up. */
    const useUpWindow = async (n: number) => {
      (t.clock as ManualClock).advance(61_000);
      for (let i = 0; i < n; i++) await t.request('GET', '/v1/screenings', { key: org.key });
      retries.length = 0;
      sent.length = 0;
    };
    const stored = async () => (await t.ctx.database.db.selectFrom('screenings').select('id').execute()).length;

    it('screens a name and lists screenings, typed end to end', async () => {
      await useUpWindow(0);
      const screened = await client.POST('/v1/screen', {
        body: { name: 'Rustam Karimov', entityType: 'person' },
        params: { header: { 'idempotency-key': idempotencyKey() } },
      });
      assert.equal(screened.response.status, 200, JSON.stringify(screened.error));
      assert.ok(screened.data);
      const result = screened.data.data;
      assert.equal(result.riskLevel, 'high');
      assert.ok(result.matchedSources.length >= 2);
      const listed = await client.GET('/v1/screenings', { params: { query: { page: 1, pageSize: 10 } } });
      assert.equal(listed.response.status, 200);
      assert.ok(listed.data?.data.some((s) => s.id === result.screeningId));
    });

    it('gives the error envelope typed, with its code', async () => {
      const missing = await client.GET('/v1/screenings/{id}', { params: { path: { id: 'scr_missing' } } });
      assert.equal(missing.response.status, 404);
      assert.equal(missing.data, undefined);
      assert.equal(missing.error?.error.code, 'NOT_FOUND');
      const invalid = await client.POST('/v1/screen', { body: { name: '' } });
      assert.equal(invalid.error?.error.code, 'VALIDATION_ERROR');
    });

    it('waits the Retry-After of a 429 and retries a GET', async () => {
      await useUpWindow(LIMIT);
      const listed = await client.GET('/v1/screenings', {});
      assert.equal(listed.response.status, 200);
      assert.equal(retries.length, 1);
      assert.equal(retries[0]?.method, 'GET');
      assert.ok(retries[0]!.waitSeconds >= 1 && retries[0]!.waitSeconds <= 60, String(retries[0]?.waitSeconds));
      assert.deepEqual(sent, ['GET /v1/screenings', 'GET /v1/screenings']);
    });

    it('never repeats a POST /v1/screen without an Idempotency-Key: the 429 comes back', async () => {
      await useUpWindow(LIMIT);
      const before = await stored();
      const limited = await client.POST('/v1/screen', { body: { name: 'Zarya Shipping' } });
      assert.equal(limited.response.status, 429);
      assert.equal(limited.error?.error.code, 'RATE_LIMITED');
      assert.ok(Number(limited.response.headers.get('retry-after')) >= 1);
      assert.equal(retries.length, 0);
      assert.deepEqual(sent, ['POST /v1/screen']);
      assert.equal(await stored(), before);
    });

    it('retries a POST /v1/screen that carries its Idempotency-Key, and screens once', async () => {
      await useUpWindow(LIMIT);
      const before = await stored();
      const key = idempotencyKey();
      const screened = await client.POST('/v1/screen', {
        body: { name: 'Zarya Shipping', entityType: 'organization' },
        params: { header: { 'idempotency-key': key } },
      });
      assert.equal(screened.response.status, 200, JSON.stringify(screened.error));
      assert.equal(retries.length, 1);
      assert.deepEqual(sent, ['POST /v1/screen', 'POST /v1/screen']);
      assert.equal(await stored(), before + 1);
      // The same key again is a replay of the stored answer, not a second screening.
      const again = await client.POST('/v1/screen', {
        body: { name: 'Zarya Shipping', entityType: 'organization' },
        params: { header: { 'idempotency-key': key } },
      });
      assert.equal(again.response.headers.get('idempotency-replayed'), 'true');
      assert.equal(again.data?.data.screeningId, screened.data?.data.screeningId);
      assert.equal(await stored(), before + 1);
    });

    it('returns a 429 after its retries are spent, or when Retry-After is longer than it waits', async () => {
      await useUpWindow(LIMIT);
      const patient = createSanctionsClient({
        baseUrl: t.url,
        apiKey: org.key,
        maxRetryAfterSeconds: 0,
        sleep: async () => assert.fail('must not wait'),
      });
      const limited = await patient.GET('/v1/screenings', {});
      assert.equal(limited.response.status, 429);
      assert.equal(limited.error?.error.code, 'RATE_LIMITED');
    });
  });
}
