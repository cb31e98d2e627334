/**
 * Durability with a real server process: a batch under way when the server is killed (SIGKILL)
 * resumes after a restart; no row is lost and none is screened twice.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createContext } from '../../src/start/context.js';
import { ENGINES, activateRecords, sampleRecords, seedOrg, testEnv } from '../helpers/harness.js';

const runningFromSource = fileURLToPath(import.meta.url).endsWith('.ts');
const ROWS = 1500;

/** Starts `sanctions serve` as a child process; resolves with its URL once it listens and its lists are loaded. */
async function startServer(env: Record<string, string>): Promise<{ proc: ChildProcess; url: string }> {
  const args = runningFromSource ? ['--import', 'tsx', 'src/start/server.ts'] : ['dist/src/start/server.js'];
  const proc = spawn(process.execPath, args, {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '', ...env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stderr!.resume();
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start')), 30_000);
    proc.once('exit', () => reject(new Error('the server exited at start')));
    createInterface({ input: proc.stdout! }).on('line', (text) => {
      try {
        const line = JSON.parse(text) as { msg?: string; url?: string };
        if (line.msg === 'sanctions screening service listening' && line.url) {
          clearTimeout(timer);
          resolve(line.url);
        }
      } catch {
        // not a log line
      }
    });
  });
  for (let i = 0; i < 300; i++) {
    const health = (await (await fetch(`${url}/health`)).json()) as { data?: { listsReady?: boolean } };
    if (health.data?.listsReady) return { proc, url };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not load its lists');
}

async function kill(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGKILL');
  await exited;
}

for (const { engine, skip } of ENGINES) {
  describe(`batch resumes after kill -9 (${engine})`, { skip }, () => {
    const children: ChildProcess[] = [];
    after(async () => {
      for (const c of children) await kill(c);
    });

    it('a batch killed half way finishes after a restart: rows lost 0, rows screened twice 0', async () => {
      // One row at a time, so that the kill lands while rows are still queued; short leases (PostgreSQL).
      const env = testEnv(engine, {
        LIST_SYNC_ON_START: 'false',
        BATCH_CONCURRENCY: '1',
        BATCH_CLAIM_SIZE: '16',
        BATCH_LEASE: '1s',
        BATCH_POLL_INTERVAL: '200ms',
        RATE_LIMIT_PER_MINUTE: '100000',
      });
      const ctx = await createContext(env.config);
      try {
        const org = await seedOrg(ctx);
        const records = sampleRecords();
        await activateRecords(ctx, 'us_ofac', records.us_ofac);
        await activateRecords(ctx, 'un_csl', records.un_csl);

        let server = await startServer(env.env);
        children.push(server.proc);
        const csv = ['name,externalId', ...Array.from({ length: ROWS }, (_, i) => `Customer Person ${i},r-${i}`)];
        csv.push(',bad-row');
        const created = await fetch(`${server.url}/v1/batches`, {
          method: 'POST',
          headers: { 'x-api-key': org.key, 'content-type': 'text/csv' },
          body: csv.join('\n'),
        });
        assert.equal(created.status, 202, await created.clone().text());
        const { batchId } = ((await created.json()) as { data: { batchId: string } }).data;
        const progress = async (url: string) =>
          (
            (await (await fetch(`${url}/v1/batches/${batchId}`, { headers: { 'x-api-key': org.key } })).json()) as {
              data: { status: string; done: number; screened: number; errors: number; total: number };
            }
          ).data;

        let before = await progress(server.url);
        while (before.screened < ROWS / 10) {
          await new Promise((r) => setTimeout(r, 20));
          before = await progress(server.url);
        }
        await kill(server.proc);
        assert.ok(before.screened < ROWS, `killed before the end (${before.screened} of ${ROWS} screened)`);

        server = await startServer(env.env);
        children.push(server.proc);
        let end = await progress(server.url);
        for (let i = 0; end.status !== 'completed' && i < 1200; i++) {
          await new Promise((r) => setTimeout(r, 100));
          end = await progress(server.url);
        }
        await kill(server.proc);
        assert.equal(end.status, 'completed');
        assert.deepEqual([end.total, end.screened, end.errors], [ROWS + 1, ROWS, 1]);

        // Lost: a row with no screening. Twice: two screenings of one row.
        const rows = await ctx.database.db
          .selectFrom('batch_rows')
          .select(['state', 'screening_id'])
          .where('batch_id', '=', batchId)
          .execute();
        const doneRows = rows.filter((r) => r.state === 'done');
        assert.equal(doneRows.length, ROWS);
        assert.equal(new Set(doneRows.map((r) => r.screening_id)).size, ROWS);
        const screenings = await ctx.database.db
          .selectFrom('screenings')
          .select('external_id')
          .where('org_id', '=', org.orgId)
          .execute();
        assert.equal(screenings.length, ROWS, 'one stored screening per row, none twice');
        assert.equal(new Set(screenings.map((s) => s.external_id)).size, ROWS);
        const usage = await ctx.database.db
          .selectFrom('usage')
          .select('count')
          .where('org_id', '=', org.orgId)
          .executeTakeFirst();
        assert.equal(Number(usage?.count), ROWS, 'one quota unit per screened row');
      } finally {
        await ctx.close();
        await env.cleanup();
      }
    });
  });
}
