/**
 * Reliability (issue 17, 6a): `sanctions serve` on SQLite as a real child process, killed with
 * SIGKILL while concurrent POST /screen requests with Idempotency-Keys run, several rounds. Then every
 * acknowledged screening exists, and every key replays its own screening and no other.
 * `node dist/bench/reliability.js --rounds=N` runs the same with more rounds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createContext } from '../../src/start/context.js';
import { type TestEnv, seedOrg, testEnv } from '../helpers/harness.js';
import { loadSampleLists } from '../helpers/http-assert.js';
import { runCrashRounds } from '../../bench/reliability-rounds.js';

const ROUNDS = Number(process.env.RELIABILITY_ROUNDS ?? 3);

describe('kill -9 during concurrent POST /screen (sqlite, real server process)', () => {
  let env: TestEnv;
  let key: string;
  before(async () => {
    env = testEnv('sqlite', { RATE_LIMIT_PER_MINUTE: '10000000', LIST_RELOAD_INTERVAL: '1s' });
    const ctx = await createContext(env.config);
    key = (await seedOrg(ctx, { tier: 'enterprise' })).key;
    await loadSampleLists(ctx);
    await ctx.close();
  });
  after(async () => env?.cleanup());

  it(`loses no acknowledged screening over ${ROUNDS} kill -9 rounds; each key replays its own`, async () => {
    const report = await runCrashRounds({ env: env.env, key, rounds: ROUNDS, acksPerRound: 120, concurrency: 16 });
    assert.ok(report.acknowledged >= ROUNDS * 120, `acknowledged ${report.acknowledged}`);
    assert.equal(report.kills, ROUNDS);
    assert.deepEqual(report.missing, [], 'every acknowledged screening is stored');
    assert.deepEqual(report.wrongReplays, [], 'every key replays its own screening');
    assert.deepEqual(report.sharedScreenings, [], 'no two keys share a screening');
    assert.ok(report.unacknowledged > 0, 'requests were cut off by the kill (the test hit in-flight work)');
  });
});
