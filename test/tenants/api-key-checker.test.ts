import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import { type DatabaseHandle, openDatabase } from '../../src/infra/database.js';
import { ApiKeyChecker, type KeyCheck } from '../../src/tenants/auth.js';
import { tenantsService } from '../../src/tenants/tenants-service.js';
import { ENGINES, type TestEnv, migratedDatabase } from '../helpers/harness.js';

function code(check: KeyCheck): string {
  return check.ok ? (check.isMember ? `ok ${check.caller.tier}` : 'not a member') : check.error.code;
}

/**
 * The key checker keeps keys in memory on SQLite. Whatever it keeps, a change made through the
 * server's own connection or through another connection (the admin command line is another process)
 * must show on the very next check.
 */
for (const { engine, skip } of ENGINES) {
  describe(`API key checks (${engine})`, { skip }, () => {
    let env: TestEnv;
    let server: DatabaseHandle;
    let cli: DatabaseHandle;
    let clock: ManualClock;
    let checker: ApiKeyChecker;
    const viaServer = () => ({ db: server.db, clock });
    const viaCli = () => ({ db: cli.db, clock });
    const tenants = tenantsService();

    before(async () => {
      ({ env, handle: server } = await migratedDatabase(engine));
      cli = openDatabase(env.config.database);
      clock = new ManualClock('2026-01-15T12:00:00.000Z');
      checker = new ApiKeyChecker(server.db, clock);
      await tenants.createOrganization({ ctx: viaCli(), input: { slug: 'acme', name: 'Acme', tier: 'starter' } });
      await tenants.addUser({ ctx: viaCli(), input: { org: 'acme', email: 'ana@acme.test' } });
      await tenants.addUser({ ctx: viaCli(), input: { org: 'acme', email: 'bo@acme.test' } });
    });
    after(async () => {
      await cli?.close();
      await server?.close();
      await env?.cleanup();
    });

    it(
      engine === 'sqlite'
        ? 'answers a known key from memory until something changes'
        : 'reads the key from the database on every check',
      async () => {
        const key = await tenants.createApiKey({ ctx: viaCli(), input: { org: 'acme', email: 'ana@acme.test' } });
        const reads = checker.reads;
        for (let i = 0; i < 5; i++) assert.equal(code(await checker.check(key.key)), 'ok starter');
        assert.equal(checker.reads - reads, engine === 'sqlite' ? 1 : 5);
        assert.equal(code(await checker.check('sk_unknown')), 'INVALID_API_KEY');
        assert.equal(code(await checker.check(undefined)), 'UNAUTHORIZED');
      },
    );

    it('a key revoked by another connection is refused on the next check', async () => {
      const key = await tenants.createApiKey({ ctx: viaCli(), input: { org: 'acme', email: 'ana@acme.test' } });
      assert.equal(code(await checker.check(key.key)), 'ok starter');
      assert.equal(code(await checker.check(key.key)), 'ok starter');
      await tenants.revokeApiKey({ ctx: viaCli(), input: { id: key.id } });
      assert.equal(code(await checker.check(key.key)), 'INVALID_API_KEY');
    });

    it('a key revoked through the same connection is refused on the next check', async () => {
      const key = await tenants.createApiKey({ ctx: viaServer(), input: { org: 'acme', email: 'ana@acme.test' } });
      assert.equal(code(await checker.check(key.key)), 'ok starter');
      await tenants.revokeApiKey({ ctx: viaServer(), input: { id: key.id } });
      assert.equal(code(await checker.check(key.key)), 'INVALID_API_KEY');
    });

    it('a tier changed by another connection applies on the next check, and so does the change back', async () => {
      const key = await tenants.createApiKey({ ctx: viaCli(), input: { org: 'acme', email: 'ana@acme.test' } });
      assert.equal(code(await checker.check(key.key)), 'ok starter');
      await tenants.updateOrganization({ ctx: viaCli(), input: { org: 'acme', tier: 'free', quota: 5 } });
      const free = await checker.check(key.key);
      assert.equal(code(free), 'ok free');
      assert.equal(free.ok && free.caller.quota, 5);
      await tenants.updateOrganization({ ctx: viaServer(), input: { org: 'acme', tier: 'starter', quota: null } });
      const starter = await checker.check(key.key);
      assert.equal(code(starter), 'ok starter');
      assert.equal(starter.ok && starter.caller.quota, 1000);
    });

    it('an owner removed by another connection is no longer a member on the next check', async () => {
      const key = await tenants.createApiKey({ ctx: viaCli(), input: { org: 'acme', email: 'bo@acme.test' } });
      assert.equal(code(await checker.check(key.key)), 'ok starter');
      await tenants.removeUser({ ctx: viaCli(), input: { org: 'acme', email: 'bo@acme.test' } });
      assert.equal(code(await checker.check(key.key)), 'not a member');
    });

    it('expiry is judged against the clock on every check, with nothing written', async () => {
      const key = await tenants.createApiKey({
        ctx: viaCli(),
        input: {
          org: 'acme',
          email: 'ana@acme.test',
          expiresAt: '2026-01-15T13:00:00.000Z',
        },
      });
      assert.equal(code(await checker.check(key.key)), 'ok starter');
      clock.set('2026-01-15T12:59:59.999Z');
      assert.equal(code(await checker.check(key.key)), 'ok starter');
      const reads = checker.reads;
      clock.set('2026-01-15T13:00:00.000Z');
      const expired = await checker.check(key.key);
      assert.equal(code(expired), 'INVALID_API_KEY');
      assert.match(!expired.ok ? expired.error.message : '', /expired/);
      if (engine === 'sqlite') assert.equal(checker.reads, reads, 'answered from memory');
      clock.set('2026-01-15T12:00:00.000Z');
    });
  });
}
