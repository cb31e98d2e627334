import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLI_BUILT, type CliResult, cli } from '../helpers/cli.js';
import { ConsoleClient, linkPath } from '../helpers/console-client.js';
import { ENGINES, type TestApp, type TestEnv, startTestApp, testEnv } from '../helpers/harness.js';

/** `sanctions users add --role` and `sanctions users invite`, on both engines, with the printed link used on a server. */

function ok(res: CliResult): void {
  assert.equal(res.code, 0, `exit ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
}

for (const { engine, skip } of ENGINES) {
  describe(
    `sanctions users --role / invite (${engine})`,
    { skip: skip || (CLI_BUILT ? false : 'dist/ is not built') },
    () => {
      let env: TestEnv;
      let server: TestApp | undefined;
      before(() => {
        env = testEnv(engine, { PUBLIC_URL: 'https://screening.example.com/' });
      });
      after(async () => {
        await server?.close();
        await env?.cleanup();
      });

      it('gives roles: the first member admin, later ones analyst, or the one given', async () => {
        ok(await cli(env, ['orgs', 'create', '--slug', 'acme', '--name', 'Acme', '--tier', 'starter']));
        const first = await cli(env, ['users', 'add', '--org', 'acme', '--email', 'ana@acme.test', '--json']);
        ok(first);
        assert.equal(first.json.role, 'admin');
        const second = await cli(env, ['users', 'add', '--org', 'acme', '--email', 'bo@acme.test', '--json']);
        assert.equal(second.json.role, 'analyst');
        const audit = await cli(env, ['users', 'add', '--org', 'acme', '--email', 'cy@acme.test', '--role', 'auditor']);
        ok(audit);
        assert.match(audit.stdout, /added cy@acme\.test to acme as auditor/);
        const changed = await cli(env, [
          'users',
          'add',
          '--org',
          'acme',
          '--email',
          'bo@acme.test',
          '--role',
          'auditor',
          '--json',
        ]);
        assert.deepEqual([changed.json.created, changed.json.role], [false, 'auditor']);
        const wrong = await cli(env, ['users', 'add', '--org', 'acme', '--email', 'dee@acme.test', '--role', 'owner']);
        assert.equal(wrong.code, 2);
        assert.match(wrong.stderr, /must be one of admin, analyst, auditor/);
        const list = await cli(env, ['users', 'list', '--org', 'acme', '--json']);
        assert.deepEqual(
          list.json.map((u: { email: string; role: string }) => `${u.email}:${u.role}`),
          ['ana@acme.test:admin', 'bo@acme.test:auditor', 'cy@acme.test:auditor'],
        );
      });

      it('prints a single-use link for new and existing members, a reset link once a password is set', async () => {
        const invited = await cli(env, [
          'users',
          'invite',
          '--org',
          'acme',
          '--email',
          'Eve@Acme.test',
          '--role',
          'analyst',
          '--json',
        ]);
        ok(invited);
        assert.match(invited.json.url, /^https:\/\/screening\.example\.com\/console\/invitations\/[A-Za-z0-9_-]{43}$/);
        assert.deepEqual(
          [invited.json.email, invited.json.org, invited.json.role, invited.json.purpose, invited.json.newMember],
          ['eve@acme.test', 'acme', 'analyst', 'invite', true],
        );
        const text = await cli(env, ['users', 'invite', '--org', 'acme', '--email', 'ana@acme.test']);
        ok(text);
        assert.match(
          text.stdout,
          /invitation for ana@acme\.test \(admin in acme\), single use, expires .*\n\n {2}https:\/\/screening\.example\.com\/console\/invitations\/\S+/,
        );
        const url = /(https:\S+)/.exec(text.stdout)?.[1] ?? '';

        server = await startTestApp(engine, { shared: env });
        const client = new ConsoleClient(server.url);
        assert.equal((await client.get(linkPath(url))).status, 200, "ana's link");
        assert.equal((await client.get(linkPath(invited.json.url))).status, 200, "eve's link");
        const password = 'eve has a long password';
        const set = await client.post(linkPath(invited.json.url), { password, confirm: password });
        assert.equal(set.status, 303, set.text);
        assert.equal((await client.get(linkPath(invited.json.url))).status, 404, 'single use');
        assert.equal((await client.signIn('eve@acme.test', password)).status, 303);

        const reset = await cli(env, [
          'users',
          'invite',
          '--org',
          'acme',
          '--email',
          'eve@acme.test',
          '--role',
          'admin',
          '--json',
        ]);
        ok(reset);
        assert.deepEqual([reset.json.purpose, reset.json.newMember, reset.json.role], ['reset', false, 'analyst']);
        const fresh = new ConsoleClient(server.url);
        const page = await fresh.get(linkPath(reset.json.url));
        assert.match(page.text, /Reset your password/);
        const newPassword = 'eve changed her password';
        await fresh.post(linkPath(reset.json.url), { password: newPassword, confirm: newPassword });
        assert.equal((await client.get('/console/screen')).status, 303, 'a new password ends the old sessions');
        assert.equal((await fresh.signIn('eve@acme.test', password)).status, 401);
        assert.equal((await fresh.signIn('eve@acme.test', newPassword)).status, 303);
      });
    },
  );
}
