import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import { ENGINES, type SeededOrg, type TestApp, type TestResponse, seedOrg, startTestApp } from '../helpers/harness.js';
import { assertError, loadSampleLists } from '../helpers/http-assert.js';

/**
 * Redis lost in the middle of a load (docs/multi-node.md, "Faults"): two nodes on one PostgreSQL
 * database count in a redis-server of this test's own, which is killed while requests are under way
 * and started again empty. Every answer is a screening (200), a refusal that names Redis (503), or the
 * limit's or the quota's own refusal; never more than 60 admitted for a key in a minute, never more
 * than the monthly quota, and every acknowledged screening is stored and can be read back.
 */

const postgres = ENGINES.find((e) => e.engine === 'postgres')!;
const haveRedisServer = spawnSync('redis-server', ['--version']).status === 0;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A redis-server that keeps nothing on disk, on `port`; resolves once it accepts connections. */
async function startRedis(port: number): Promise<ChildProcess> {
  const proc = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`redis-server exited (${code})`)));
    let seen = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('Ready to accept connections')) resolve();
    });
  });
  return proc;
}

async function stop(proc: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill(signal);
  await exited;
}

interface Answer {
  key: 'open' | 'limited';
  res: TestResponse;
}

/** An answer is a screening, a refusal naming Redis, or the limit's or the quota's own refusal. */
function assertExpected(answer: Answer): void {
  const { res } = answer;
  if (res.status === 200) {
    assert.match(res.body.data.screeningId, /^scr_/);
    return;
  }
  if (res.status === 503) {
    assertError(res, 503, 'SERVICE_UNAVAILABLE');
    assert.match(res.body.error.message, /Redis/, res.text);
    assert.ok(Number(res.headers.get('retry-after')) >= 1);
    return;
  }
  if (res.status === 429) return assertError(res, 429, 'RATE_LIMITED');
  assert.equal(answer.key, 'limited', `${res.status} ${res.text}`);
  assertError(res, 403, 'TIER_LIMIT_EXCEEDED');
}

describe(
  'Redis killed and restarted under load, two nodes on one PostgreSQL database',
  {
    skip: postgres.skip || (haveRedisServer ? false : 'redis-server is not installed'),
  },
  () => {
    let redis: ChildProcess | undefined;
    let port: number;
    let a: TestApp;
    let b: TestApp;
    let clock: ManualClock;
    let open: SeededOrg;
    let limited: SeededOrg;
    const QUOTA = 40;

    before(async () => {
      port = await freePort();
      redis = await startRedis(port);
      // 5 s into a minute: the whole load runs in that minute of the nodes' clock.
      clock = new ManualClock('2026-05-12T10:00:05.000Z');
      const env = { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_KEY_PREFIX: 'outage:', REDIS_QUOTA_SETTLE: '10s' };
      a = await startTestApp('postgres', { clock, env });
      b = await startTestApp('postgres', { clock, shared: a.env });
      open = await seedOrg(a.ctx);
      limited = await seedOrg(a.ctx, { quota: QUOTA });
      await loadSampleLists(a.ctx);
      await b.ctx.runtime.refresh();
    });
    after(async () => {
      await b?.close();
      await a?.close();
      await stop(redis, 'SIGKILL');
    });

    /** `count` POST /v1/screen, the keys and nodes in turn, `concurrency` at a time; `during(i)` runs before the i-th. */
    async function load(
      count: number,
      during: (i: number) => Promise<void> = async () => undefined,
    ): Promise<Answer[]> {
      const answers: Answer[] = [];
      const concurrency = 6;
      for (let i = 0; i < count; i += concurrency) {
        await during(i);
        const wave = Array.from({ length: Math.min(concurrency, count - i) }, async (_, j) => {
          const n = i + j;
          const key = n % 3 === 2 ? 'limited' : 'open';
          const res = await (n % 2 === 0 ? a : b).request('POST', '/v1/screen', {
            key: key === 'open' ? open.key : limited.key,
            body: { name: n % 5 === 0 ? 'Rustam Karimov' : `Customer ${n}` },
          });
          return { key, res } as Answer;
        });
        answers.push(...(await Promise.all(wave)));
      }
      return answers;
    }

    const admitted = (answers: Answer[], key: Answer['key']) =>
      answers.filter((x) => x.key === key && x.res.status === 200);

    it('answers 200 or a 503 naming Redis, admits no more than the limit and the quota, loses nothing acknowledged', async () => {
      // Minute one: 64 requests of the open key (its limit, 60, is reached) and 32 of the limited one
      // (quota 40), then Redis is killed; it is started again, empty, three dozen requests later.
      const first = await load(180, async (i) => {
        if (i === 96) await stop(redis, 'SIGKILL');
        if (i === 132) redis = await startRedis(port);
      });
      for (const answer of first) assertExpected(answer);
      const beforeKill = first.slice(0, 96);
      assert.equal(admitted(beforeKill, 'open').length, 60, 'the limit was not reached before Redis went down');
      assert.ok(beforeKill.some((x) => x.res.status === 429));
      // Down, then restarted with its counts lost: the rest of that minute is refused, never admitted unchecked.
      for (const x of first.slice(96)) assert.equal(x.res.status, 503, x.res.text);
      assert.equal(admitted(first, 'open').length, 60);

      // The next minute, past the quota's settling time: the limit counts afresh, the quota is rebuilt
      // from the screenings stored in the database.
      clock.advance(70_000);
      const second = await load(120);
      for (const answer of second) assertExpected(answer);
      assert.equal(admitted(second, 'open').length, 60);
      assert.ok(
        second.some((x) => x.key === 'limited' && x.res.status === 403),
        'the quota was never reached: the test did not load enough',
      );
      // The quota counted before the loss (32) is rebuilt from the database: 8 more, never past it.
      const limitedAdmitted = admitted([...first, ...second], 'limited').length;
      assert.equal(limitedAdmitted, QUOTA, `${limitedAdmitted} admitted against a quota of ${QUOTA}`);

      // Nothing acknowledged is lost: every 200's screening is stored, and read back through the API
      // (a minute of the clock per 50 reads, under the key's limit).
      const db = a.ctx.database.db;
      for (const [org, key] of [
        [open, 'open'],
        [limited, 'limited'],
      ] as const) {
        const ids = admitted([...first, ...second], key).map((x) => x.res.body.data.screeningId as string);
        const stored = await db.selectFrom('screenings').select('id').where('org_id', '=', org.orgId).execute();
        assert.deepEqual(stored.map((r) => r.id).sort(), [...ids].sort());
        for (let i = 0; i < ids.length; i++) {
          if (i % 50 === 0) clock.advance(60_000);
          const node = i % 2 === 0 ? a : b;
          const read = await node.request('GET', `/v1/screenings/${ids[i]}`, { key: org.key });
          assert.equal(read.status, 200, read.text);
          assert.equal(read.body.data.id, ids[i]);
        }
      }
    });
  },
);
