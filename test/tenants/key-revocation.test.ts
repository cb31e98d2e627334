import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cli } from '../helpers/cli.js';
import { ENGINES, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { GENEROUS_LIMITS, assertError } from '../helpers/http-assert.js';

/**
 * Each node keeps the API keys it checked in memory (tenants/auth.ts); a key revoked through one node
 * or the command line is refused by every node within a second: on PostgreSQL the key tables'
 * triggers notify every node (LISTEN/NOTIFY), on SQLite the one database file tells its connections.
 */
for (const { engine, skip } of ENGINES) {
  describe(`key revocation across two nodes (${engine})`, { skip }, () => {
    let a: TestApp;
    let b: TestApp;
    let org: SeededOrg;
    before(async () => {
      a = await startTestApp(engine, { env: GENEROUS_LIMITS });
      b = await startTestApp(engine, { clock: a.clock, shared: a.env });
      org = await seedOrg(a.ctx);
    });
    after(async () => {
      await b?.close();
      await a?.close();
    });

    it('is refused on the other node within one second, and the other node answered from its cache before', async () => {
      // Node b's first checks may read the database (its listening connection may still be starting).
      let reads = -1;
      for (let i = 0; i < 50 && reads !== b.app.apiKeyReads(); i++) {
        reads = b.app.apiKeyReads();
        for (let j = 0; j < 3; j++)
          assert.equal((await b.request('GET', '/v1/screenings', { key: org.key })).status, 200);
        if (reads === b.app.apiKeyReads()) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const cachedFrom = b.app.apiKeyReads();
      for (let i = 0; i < 5; i++)
        assert.equal((await b.request('GET', '/v1/screenings', { key: org.key })).status, 200);
      assert.equal(b.app.apiKeyReads(), cachedFrom, 'node b read the key from the database again: it is not cached');

      // Revoked by another process (the command line): neither node wrote it, each must be told.
      const revoked = await cli(a.env, ['keys', 'revoke', '--id', org.keyId, '--json']);
      assert.equal(revoked.code, 0, revoked.stderr);
      const revokedAt = performance.now();
      let status = 0;
      while (performance.now() - revokedAt < 1000) {
        const res = await b.request('GET', '/v1/screenings', { key: org.key });
        status = res.status;
        if (status === 401) {
          assertError(res, 401, 'INVALID_API_KEY');
          break;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal(status, 401, 'node b still accepted the revoked key a second later');
      assertError(await a.request('GET', '/v1/screenings', { key: org.key }), 401, 'INVALID_API_KEY');
    });
  });
}
