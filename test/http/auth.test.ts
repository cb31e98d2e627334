import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import { ENGINES, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { assertCommonHeaders, assertError, loadSampleLists } from '../helpers/http-assert.js';

/** api-v1.md section 5 and DECISIONS.md "Organizations, keys, tiers, quotas", against the running server. */
for (const { engine, skip } of ENGINES) {
  describe(`authentication (${engine})`, { skip }, () => {
    let t: TestApp;
    let clock: ManualClock;
    let org: SeededOrg;
    const admin = () => t.ctx.operator;
    const tenants = () => t.ctx.services.tenants;

    before(async () => {
      clock = new ManualClock('2026-01-15T12:00:00.000Z');
      t = await startTestApp(engine, { clock, env: { RATE_LIMIT_PER_MINUTE: '1000' } });
      org = await seedOrg(t.ctx);
      await loadSampleLists(t.ctx);
    });
    after(async () => t?.close());

    it('accepts a valid key', async () => {
      const res = await t.request('GET', '/v1/screenings', { key: org.key });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.success, true);
      assertCommonHeaders(res);
    });

    it('missing x-api-key: 401 UNAUTHORIZED', async () => {
      assertError(await t.request('GET', '/v1/screenings'), 401, 'UNAUTHORIZED');
      assertError(await t.request('POST', '/v1/screen', { body: { name: 'x' } }), 401, 'UNAUTHORIZED');
      assertError(await t.request('GET', '/v1/screenings', { key: '' }), 401, 'UNAUTHORIZED');
    });

    it('unknown key: 401 INVALID_API_KEY', async () => {
      assertError(await t.request('GET', '/v1/screenings', { key: 'sk_not-a-real-key' }), 401, 'INVALID_API_KEY');
      // A key that differs from a real one in its last character.
      const near = org.key.slice(0, -1) + (org.key.endsWith('A') ? 'B' : 'A');
      assertError(await t.request('GET', '/v1/screenings', { key: near }), 401, 'INVALID_API_KEY');
    });

    it('revoked key: 401 INVALID_API_KEY', async () => {
      const key = await tenants().createApiKey({ ctx: admin(), input: { org: org.slug, email: org.email } });
      assert.equal((await t.request('GET', '/v1/screenings', { key: key.key })).status, 200);
      await tenants().revokeApiKey({ ctx: admin(), input: { id: key.id } });
      assertError(await t.request('GET', '/v1/screenings', { key: key.key }), 401, 'INVALID_API_KEY');
      // The other key of the same user is untouched.
      assert.equal((await t.request('GET', '/v1/screenings', { key: org.key })).status, 200);
    });

    it('expired key: 401 INVALID_API_KEY once the clock passes its expiry', async () => {
      const expiresAt = new Date(clock.now().getTime() + 60 * 60 * 1000).toISOString();
      const key = await tenants().createApiKey({ ctx: admin(), input: { org: org.slug, email: org.email, expiresAt } });
      assert.equal((await t.request('GET', '/v1/screenings', { key: key.key })).status, 200);
      clock.advance(60 * 60 * 1000 - 1000);
      assert.equal(
        (await t.request('GET', '/v1/screenings', { key: key.key })).status,
        200,
        'still valid a second before expiry',
      );
      clock.advance(1000);
      const res = await t.request('GET', '/v1/screenings', { key: key.key });
      assertError(res, 401, 'INVALID_API_KEY');
      assert.match(res.body.error.message, /expired/);
    });

    it("owner removed from the organization: 403 FORBIDDEN, and the organization's other keys keep working", async () => {
      const other = await seedOrg(t.ctx);
      const leaver = { org: other.slug, email: 'leaver@example.test' };
      await tenants().addUser({ ctx: admin(), input: leaver });
      const leaverKey = await tenants().createApiKey({ ctx: admin(), input: leaver });
      assert.equal((await t.request('GET', '/v1/screenings', { key: leaverKey.key })).status, 200);
      await tenants().removeUser({ ctx: admin(), input: leaver });
      assertError(await t.request('GET', '/v1/screenings', { key: leaverKey.key }), 403, 'FORBIDDEN');
      assertError(
        await t.request('POST', '/v1/screen', { key: leaverKey.key, body: { name: 'Rustam Karimov' } }),
        403,
        'FORBIDDEN',
      );
      assert.equal((await t.request('GET', '/v1/screenings', { key: other.key })).status, 200);
    });

    it('free tier: 403 FEATURE_NOT_AVAILABLE on every v1 endpoint', async () => {
      const free = await seedOrg(t.ctx, { tier: 'free' });
      assertError(await t.request('GET', '/v1/screenings', { key: free.key }), 403, 'FEATURE_NOT_AVAILABLE');
      assertError(
        await t.request('POST', '/v1/screen', { key: free.key, body: { name: 'Rustam Karimov' } }),
        403,
        'FEATURE_NOT_AVAILABLE',
      );
      assertError(await t.request('GET', '/v1/monitors', { key: free.key }), 403, 'FEATURE_NOT_AVAILABLE');
      const stored = await t.ctx.database.db
        .selectFrom('screenings')
        .select('id')
        .where('org_id', '=', free.orgId)
        .execute();
      assert.equal(stored.length, 0);
    });

    it('quota exhausted: 403 TIER_LIMIT_EXCEEDED; replays still work; the next UTC month works again', async () => {
      clock.set('2026-03-31T23:50:00.000Z');
      const small = await seedOrg(t.ctx, { tier: 'starter', quota: 2 });
      const first = await t.request('POST', '/v1/screen', {
        key: small.key,
        body: { name: 'Rustam Karimov' },
        headers: { 'Idempotency-Key': 'quota-1' },
      });
      assert.equal(first.status, 200, first.text);
      assert.equal(
        (await t.request('POST', '/v1/screen', { key: small.key, body: { name: 'Zarya Shipping' } })).status,
        200,
      );

      const third = await t.request('POST', '/v1/screen', {
        key: small.key,
        body: { name: 'Blue Horizon Trading' },
        headers: { 'Idempotency-Key': 'quota-3' },
      });
      assertError(third, 403, 'TIER_LIMIT_EXCEEDED');

      // The refused request was not stored: neither as a screening nor as an idempotency record.
      const list = await t.request('GET', '/v1/screenings', { key: small.key });
      assert.equal(list.body.meta.pagination.total, 2);
      const keys = await t.ctx.database.db
        .selectFrom('idempotency_keys')
        .select('key')
        .where('org_id', '=', small.orgId)
        .execute();
      assert.deepEqual(
        keys.map((k) => k.key),
        ['quota-1'],
      );

      const replay = await t.request('POST', '/v1/screen', {
        key: small.key,
        body: { name: 'Rustam Karimov' },
        headers: { 'Idempotency-Key': 'quota-1' },
      });
      assert.equal(replay.status, 200, replay.text);
      assert.equal(replay.headers.get('idempotency-replayed'), 'true');
      assert.deepEqual(replay.body, first.body);

      // Still March 31st in UTC ten minutes before midnight: still refused.
      clock.set('2026-03-31T23:59:59.000Z');
      assertError(
        await t.request('POST', '/v1/screen', { key: small.key, body: { name: 'Someone Else' } }),
        403,
        'TIER_LIMIT_EXCEEDED',
      );

      clock.set('2026-04-01T00:00:00.000Z');
      const april = await t.request('POST', '/v1/screen', {
        key: small.key,
        body: { name: 'Blue Horizon Trading' },
        headers: { 'Idempotency-Key': 'quota-3' },
      });
      assert.equal(april.status, 200, april.text);
      assert.equal(april.headers.get('idempotency-replayed'), null);
      const usage = await t.ctx.database.db
        .selectFrom('usage')
        .selectAll()
        .where('org_id', '=', small.orgId)
        .orderBy('month')
        .execute();
      assert.deepEqual(
        usage.map((u) => [u.month, Number(u.count)]),
        [
          ['2026-03', 2],
          ['2026-04', 1],
        ],
      );
    });
  });

  describe(`failed-auth limit per client address (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    before(async () => {
      t = await startTestApp(engine, {
        clock: new ManualClock('2026-01-15T12:00:10.000Z'),
        env: { AUTH_FAILURE_LIMIT_PER_MINUTE: '3' },
      });
      org = await seedOrg(t.ctx);
    });
    after(async () => t?.close());

    it('gives 429 RATE_LIMITED after the limit of failed attempts, until the window ends', async () => {
      for (let i = 0; i < 3; i++) {
        assertError(await t.request('GET', '/v1/screenings', { key: `sk_guess_${i}` }), 401, 'INVALID_API_KEY');
      }
      const blocked = await t.request('GET', '/v1/screenings', { key: 'sk_guess_3' });
      assertError(blocked, 429, 'RATE_LIMITED');
      assert.match(blocked.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      // Missing keys count as failures too.
      assertError(await t.request('GET', '/v1/screenings'), 429, 'RATE_LIMITED');
      // A caller with a valid key is not locked out by someone guessing from the same address.
      assert.equal((await t.request('GET', '/v1/screenings', { key: org.key })).status, 200);

      (t.clock as ManualClock).advance(60_000);
      assertError(await t.request('GET', '/v1/screenings', { key: 'sk_guess_4' }), 401, 'INVALID_API_KEY');
    });
  });
}
