import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ENGINES, type TestApp, type TestEnv, startTestApp, testEnv } from '../helpers/harness.js';
import { CLI_BUILT, type CliResult, cli } from '../helpers/cli.js';
import { assertError } from '../helpers/http-assert.js';

/** The admin command line for organizations, users and keys (issue 2, part 6), on both engines. */

function ok(res: CliResult): void {
  assert.equal(res.code, 0, `exit ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
  assert.notEqual(res.json, undefined, `stdout is one JSON document: ${res.stdout}`);
}

/** A refused command: non-zero exit, usage on stderr. */
function usage(res: CliResult): void {
  assert.notEqual(res.code, 0, `expected a non-zero exit: ${res.stdout}`);
  assert.match(res.stderr, /Usage: sanctions/, `usage printed: ${res.stderr}`);
}

for (const { engine, skip } of ENGINES) {
  describe(
    `sanctions orgs / users / keys (${engine})`,
    { skip: skip || (CLI_BUILT ? false : 'dist/ is not built (npx tsc -p tsconfig.json)') },
    () => {
      let env: TestEnv;
      let server: TestApp | undefined;
      before(async () => {
        env = testEnv(engine);
        // Migrations run on the first command; nothing else is prepared.
      });
      after(async () => {
        await server?.close();
        await env?.cleanup();
      });

      const orgSlugs = async () =>
        ((await cli(env, ['orgs', 'list', '--json'])).json as { slug: string }[]).map((o) => o.slug).sort();

      it('migrate --json reports the engine', async () => {
        const res = await cli(env, ['migrate', '--json']);
        ok(res);
        assert.equal(res.json.engine, engine);
        assert.ok(Array.isArray(res.json.applied));
      });

      it('orgs create / update / list', async () => {
        const created = await cli(env, [
          'orgs',
          'create',
          '--slug',
          'acme',
          '--name',
          'Acme Bank',
          '--tier',
          'starter',
          '--json',
        ]);
        ok(created);
        assert.match(created.json.id, /^org_[0-9a-z]+$/);
        assert.equal(created.json.slug, 'acme');
        assert.equal(created.json.name, 'Acme Bank');
        assert.equal(created.json.tier, 'starter');
        assert.equal(created.json.effectiveQuota, 1000);

        const withQuota = await cli(env, [
          'orgs',
          'create',
          '--slug',
          'beta',
          '--name',
          'Beta',
          '--tier',
          'professional',
          '--quota',
          '25',
          '--json',
        ]);
        ok(withQuota);
        assert.equal(withQuota.json.effectiveQuota, 25);

        const updated = await cli(env, [
          'orgs',
          'update',
          '--org',
          'acme',
          '--name',
          'Acme Bank plc',
          '--tier',
          'enterprise',
          '--quota',
          '500',
          '--webhook-url',
          'http://127.0.0.1:9/hook',
          '--webhook-secret',
          'a-secret-of-enough-length',
          '--json',
        ]);
        ok(updated);
        assert.equal(updated.json.id, created.json.id);
        assert.equal(updated.json.name, 'Acme Bank plc');
        assert.equal(updated.json.tier, 'enterprise');
        assert.equal(updated.json.effectiveQuota, 500);
        assert.equal(updated.json.webhookUrl, 'http://127.0.0.1:9/hook');
        assert.equal(updated.json.webhookSecretSet, true);
        assert.doesNotMatch(updated.stdout, /a-secret-of-enough-length/, 'the secret is never printed');

        const list = await cli(env, ['orgs', 'list', '--json']);
        ok(list);
        assert.ok(Array.isArray(list.json));
        const acme = list.json.find((o: { slug: string }) => o.slug === 'acme');
        assert.deepEqual(
          { name: acme.name, tier: acme.tier, quota: acme.effectiveQuota },
          { name: 'Acme Bank plc', tier: 'enterprise', quota: 500 },
        );

        // Without --json: a human table.
        const text = await cli(env, ['orgs', 'list']);
        assert.equal(text.code, 0);
        assert.match(text.stdout, /acme\s+org_/);
        assert.equal(text.json, undefined);
      });

      it('users add / remove and keys create / list / revoke', async () => {
        const added = await cli(env, ['users', 'add', '--org', 'acme', '--email', 'Ana@Acme.test', '--json']);
        ok(added);
        assert.deepEqual(
          { email: added.json.email, org: added.json.org, created: added.json.created },
          { email: 'ana@acme.test', org: 'acme', created: true },
        );
        const again = await cli(env, ['users', 'add', '--org', 'acme', '--email', 'ana@acme.test', '--json']);
        ok(again);
        assert.equal(again.json.created, false);
        ok(await cli(env, ['users', 'add', '--org', 'acme', '--email', 'bo@acme.test', '--json']));

        const key = await cli(env, ['keys', 'create', '--org', 'acme', '--user', 'ana@acme.test', '--json']);
        ok(key);
        assert.match(key.json.id, /^key_[0-9a-z]+$/);
        assert.match(key.json.key, /^sk_[A-Za-z0-9_-]{32,}$/);
        assert.equal(key.json.expiresAt, null);

        const expiring = await cli(env, [
          'keys',
          'create',
          '--org',
          'acme',
          '--user',
          'bo@acme.test',
          '--expires-at',
          '2999-01-01',
          '--json',
        ]);
        ok(expiring);
        assert.equal(expiring.json.expiresAt, '2999-01-01T00:00:00.000Z');

        const listed = await cli(env, ['keys', 'list', '--org', 'acme', '--json']);
        ok(listed);
        assert.deepEqual(listed.json.map((k: { id: string }) => k.id).sort(), [key.json.id, expiring.json.id].sort());
        assert.ok(listed.json.every((k: { status: string }) => k.status === 'active'));
        // Keys are shown once: the list has prefixes, never the secret.
        assert.ok(!listed.stdout.includes(key.json.key));
        assert.ok(key.json.key.startsWith(listed.json.find((k: { id: string }) => k.id === key.json.id).prefix));

        const revoked = await cli(env, ['keys', 'revoke', '--id', expiring.json.id, '--json']);
        ok(revoked);
        assert.equal(revoked.json.id, expiring.json.id);
        assert.match(revoked.json.revokedAt, /^\d{4}-\d{2}-\d{2}T/);
        const after = await cli(env, ['keys', 'list', '--org', 'acme', '--json']);
        assert.equal(after.json.find((k: { id: string }) => k.id === expiring.json.id).status, 'revoked');

        const removed = await cli(env, ['users', 'remove', '--org', 'acme', '--email', 'bo@acme.test', '--json']);
        ok(removed);
        assert.equal(removed.json.removed, true);
        const members = await cli(env, ['users', 'list', '--org', 'acme', '--json']);
        assert.deepEqual(
          members.json.map((u: { email: string }) => u.email),
          ['ana@acme.test'],
        );
      });

      it('a key created by the command line works against a server on the same database, and revoking it there takes effect', async () => {
        ok(await cli(env, ['orgs', 'create', '--slug', 'live', '--name', 'Live', '--tier', 'starter', '--json']));
        ok(await cli(env, ['users', 'add', '--org', 'live', '--email', 'ops@live.test', '--json']));
        const key = await cli(env, ['keys', 'create', '--org', 'live', '--user', 'ops@live.test', '--json']);
        ok(key);
        server = await startTestApp(engine, { shared: env });
        const res = await server.request('GET', '/v1/screenings', { key: key.json.key });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.meta.pagination.total, 0);

        ok(await cli(env, ['orgs', 'update', '--org', 'live', '--tier', 'free', '--json']));
        assertError(await server.request('GET', '/v1/screenings', { key: key.json.key }), 403, 'FEATURE_NOT_AVAILABLE');
        ok(await cli(env, ['orgs', 'update', '--org', 'live', '--tier', 'starter', '--json']));
        assert.equal((await server.request('GET', '/v1/screenings', { key: key.json.key })).status, 200);

        ok(await cli(env, ['users', 'remove', '--org', 'live', '--email', 'ops@live.test', '--json']));
        assertError(await server.request('GET', '/v1/screenings', { key: key.json.key }), 403, 'FORBIDDEN');
        ok(await cli(env, ['keys', 'revoke', '--id', key.json.id, '--json']));
        assertError(await server.request('GET', '/v1/screenings', { key: key.json.key }), 401, 'INVALID_API_KEY');
      });

      it('wrong arguments print usage, exit non-zero and write nothing', async () => {
        const before = await orgSlugs();
        const attempts: string[][] = [
          ['orgs', 'create', '--slug', 'nope1'],
          ['orgs', 'create', '--slug', 'nope2', '--name', 'Nope', '--tier', 'gold'],
          ['orgs', 'create', '--slug', 'nope3', '--name', 'Nope', '--tier', 'starter', '--quota', 'lots'],
          ['orgs', 'create', '--slug', 'nope4', '--name', 'Nope', '--tier', 'starter', '--quota', '-5'],
          ['orgs', 'create', '--slug', 'Not A Slug!', '--name', 'Nope', '--tier', 'starter'],
          ['orgs', 'create', '--slug', 'nope5', '--name', 'Nope', '--tier', 'starter', '--colour', 'blue'],
          ['orgs', 'frobnicate'],
          ['orgs', 'create', 'nope6', '--name', 'Nope', '--tier', 'starter'],
        ];
        // Independent and read-only when refused: run them side by side to keep the suite quick.
        const runs = attempts.map((args, i) => (i % 2 === 0 ? [...args, '--json'] : args));
        const results = await Promise.all(runs.map((args) => cli(env, args)));
        results.forEach((res, i) => {
          usage(res);
          if (i % 2 === 0) {
            assert.notEqual(res.json, undefined, `--json prints one JSON document even on failure: ${res.stdout}`);
            assert.equal(typeof res.json.error.code, 'string');
          }
        });
        assert.deepEqual(await orgSlugs(), before);

        const snapshot = () =>
          Promise.all([
            cli(env, ['orgs', 'list', '--json']),
            cli(env, ['users', 'list', '--org', 'acme', '--json']),
            cli(env, ['keys', 'list', '--org', 'acme', '--json']),
          ]).then((all) => all.map((r) => r.json));
        const stateBefore = await snapshot();
        const refused = await Promise.all(
          [
            ['orgs', 'update', '--org', 'acme', '--tier', 'platinum', '--name', 'Changed'],
            ['orgs', 'update', '--org', 'acme', '--name', 'Changed', '--quota', '1.5'],
            ['users', 'add', '--org', 'acme'],
            ['users', 'add', '--org', 'acme', '--email', 'not-an-email', '--json'],
            ['keys', 'create', '--org', 'acme'],
            ['keys', 'create', '--org', 'acme', '--user', 'ana@acme.test', '--expires-at', 'next tuesday'],
            ['keys', 'create', '--org', 'acme', '--user', 'ana@acme.test', '--expires-at', '2001-01-01', '--json'],
            ['keys', 'revoke'],
          ].map((args) => cli(env, args)),
        );
        refused.forEach(usage);
        assert.deepEqual(await snapshot(), stateBefore);
      });

      it('things that do not exist are errors with a code, not usage errors', async () => {
        const missingOrg = await cli(env, [
          'keys',
          'create',
          '--org',
          'no-such-org',
          '--user',
          'ana@acme.test',
          '--json',
        ]);
        assert.notEqual(missingOrg.code, 0);
        assert.equal(missingOrg.json.error.code, 'NOT_FOUND');
        const missingKey = await cli(env, ['keys', 'revoke', '--id', 'key_doesnotexist', '--json']);
        assert.notEqual(missingKey.code, 0);
        assert.equal(missingKey.json.error.code, 'NOT_FOUND');
        const duplicate = await cli(env, [
          'orgs',
          'create',
          '--slug',
          'acme',
          '--name',
          'Again',
          '--tier',
          'starter',
          '--json',
        ]);
        assert.notEqual(duplicate.code, 0);
        assert.equal(duplicate.json.error.code, 'CONFLICT');
        const outsider = await cli(env, ['keys', 'create', '--org', 'beta', '--user', 'ana@acme.test', '--json']);
        assert.notEqual(outsider.code, 0, 'a key for a user who is not a member of the organization is refused');
      });

      it('a bad configuration value stops the command with a message naming it', async () => {
        const res = await cli({ ...env, env: { ...env.env, RATE_LIMIT_PER_MINUTE: 'lots' } }, [
          'orgs',
          'list',
          '--json',
        ]);
        assert.notEqual(res.code, 0);
        assert.equal(res.json.error.code, 'CONFIG_ERROR');
        assert.match(res.json.error.message, /RATE_LIMIT_PER_MINUTE/);
      });
    },
  );
}
