import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createContext } from '../../src/start/context.js';
import { ENGINES, type SeededOrg, type TestEnv, seedOrg, testEnv } from '../helpers/harness.js';
import { CLI_BUILT, cli } from '../helpers/cli.js';
import { loadSampleLists } from '../helpers/http-assert.js';

/** `sanctions screen --org S --file customers.csv [--out results.csv] [--monitor] [--json]` (issue 14, item 7). */

for (const { engine, skip } of ENGINES) {
  describe(`sanctions screen (${engine})`, { skip: skip || (!CLI_BUILT && 'dist/ is not built') }, () => {
    let env: TestEnv;
    let org: SeededOrg;
    let dir: string;

    before(async () => {
      env = testEnv(engine);
      const ctx = await createContext(env.config);
      try {
        org = await seedOrg(ctx);
        await loadSampleLists(ctx);
      } finally {
        await ctx.close();
      }
      dir = mkdtempSync(join(tmpdir(), 'sanctions-cli-batch-'));
      writeFileSync(
        join(dir, 'customers.csv'),
        'name,country,externalId\nRustam Karimov,UZ,c-1\nMargaret Whitfield,GB,c-2\n,GB,c-3\nZarya Shipping LLC,XX,c-4\n',
      );
    });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await env?.cleanup();
    });

    it('screens the file, writes the results as CSV and prints the summary', async () => {
      const out = join(dir, 'results.csv');
      const res = await cli(env, ['screen', '--org', org.slug, '--file', join(dir, 'customers.csv'), '--out', out]);
      assert.equal(res.code, 0, res.stderr + res.stdout);
      assert.match(res.stdout, /rows\s+high\s+medium\s+low\s+errors\s+took/);
      assert.match(res.stdout, /^4\s+1\s+0\s+1\s+2\s+[\d.]+ s$/m);
      assert.match(res.stdout, /line 4: name/);
      assert.match(res.stdout, /line 5: country/);
      assert.match(res.stderr, /screening \|.*\| 4\/4 rows/);
      const lines = readFileSync(out, 'utf8').trim().split('\r\n');
      assert.equal(lines.length, 5);
      assert.match(lines[1]!, /^2,c-1,Rustam Karimov,done,scr_\w+,high,/);
      assert.match(lines[3]!, /^4,c-3,,error,.*VALIDATION_ERROR,name,/);
    });

    it('--json --monitor: one JSON document, rows under monitoring', async () => {
      const res = await cli(env, [
        'screen',
        '--org',
        org.slug,
        '--file',
        join(dir, 'customers.csv'),
        '--monitor',
        '--json',
      ]);
      assert.equal(res.code, 0, res.stderr + res.stdout);
      assert.equal(res.json.status, 'completed');
      assert.deepEqual([res.json.total, res.json.screened, res.json.errors, res.json.monitor], [4, 2, 2, true]);
      assert.equal(res.stderr, '');
    });

    it('an unknown organization or a file that is not a batch file fails with the reason', async () => {
      const unknown = await cli(env, ['screen', '--org', 'nobody', '--file', join(dir, 'customers.csv'), '--json']);
      assert.equal(unknown.code, 1);
      assert.equal(unknown.json.error.code, 'NOT_FOUND');
      writeFileSync(join(dir, 'notes.txt'), 'name\nA');
      const wrong = await cli(env, ['screen', '--org', org.slug, '--file', join(dir, 'notes.txt'), '--json']);
      assert.equal(wrong.code, 2);
      assert.equal(wrong.json.error.code, 'VALIDATION_ERROR');
      assert.match(wrong.json.error.message, /file/);
    });
  });
}
