import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { getPriority } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { InFlight } from '../../src/infra/in-flight.js';
import { channelScreener } from '../../src/start/channel-screener.js';
import { MatchingPool } from '../../src/start/matching-pool.js';
import { ValidationThread } from '../../src/start/validation-thread-client.js';
import {
  type RunRequest,
  type RunResult,
  generateSigningKey,
  produceRun,
  runOptions,
  screenerEngine,
} from '../../src/validation/index.js';
import { BUILT_IN_RUN_PROFILE } from '../../src/validation/run-profile.js';
import { type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { GENEROUS_LIMITS, loadSampleLists } from '../helpers/http-assert.js';

/**
 * A validation run in a thread of its own (start/validation-thread.ts): its queries reach the
 * matching threads on ports they lend, and its report is the one the run gives on this thread.
 */

const KEY = generateSigningKey();
const queries = ['Rustam Karimov', 'KARIMOV Rustam', 'Zarya Shipping', 'Blue Horizon Trading', 'Maria Lopez'];

/** The nice values of this process's threads (Linux keeps one per thread); undefined elsewhere. */
function threadNiceValues(): number[] | undefined {
  if (!existsSync('/proc/self/task')) return undefined;
  return readdirSync('/proc/self/task').map((task) => {
    // The fields after the command's closing parenthesis; the nice value is the 19th field of the line.
    const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

/** The report's figures, without what differs from run to run (times, latency, the machine). */
function figures(result: RunResult) {
  const report = JSON.parse(result.json) as Record<string, unknown>;
  const { selfScreen, perturbations, negatives, identifiers, passed } = report;
  const summary = result.summary.filter((row) => !/latency/i.test(row.key));
  return { selfScreen, perturbations, negatives, identifiers, passed, summary, focus: result.focusMissed };
}

describe('validation in a thread of its own', () => {
  let t: TestApp;
  let pool: MatchingPool;

  before(async () => {
    t = await startTestApp('sqlite', {
      env: {
        ...GENEROUS_LIMITS,
        MATCH_THREADS: '0',
        VALIDATION_SIGNING_KEY: KEY.privateKey,
        VALIDATION_ACTIVATION_SAMPLE: '0',
      },
    });
    await loadSampleLists(t.ctx);
    pool = new MatchingPool(1, { retireAfterMs: 10 });
  });
  after(async () => {
    await pool?.close();
    await t?.close();
  });

  it('answers on a lent port what the pool answers, and keeps the lent generation until released', async () => {
    const screener = await pool.load(await t.ctx.runtime.current()!.records());
    const lent = pool.lend(screener);
    assert.ok(lent);
    const channel = channelScreener(lent.ports, lent.generation);
    try {
      for (const name of queries) {
        const expected = await screener.screenBrief({ name }, { floor: 50 });
        assert.deepEqual(await channel.screenBrief({ name }, { floor: 50 }, true), expected, name);
        assert.deepEqual(await channel.screenBrief({ name }, { floor: 50 }, false), expected, name);
      }
      // More background queries than the thread is given at once: each gets its own answer.
      const many = await Promise.all(queries.map((name) => channel.screenBrief({ name }, {}, true)));
      for (const [at, name] of queries.entries()) assert.deepEqual(many[at], await screener.screenBrief({ name }));
      // Retired while lent: the generation stays until the run releases it.
      await pool.retire(screener);
      assert.deepEqual(await channel.screenBrief({ name: queries[0]! }, {}, true), many[0]);
    } finally {
      channel.close();
      lent.release();
    }
    await assert.rejects(screener.screenBrief({ name: queries[0]! }), /retired/);
  });

  let here: RunResult | undefined;
  it('gives the report figures of a run on this thread, and a request the thread cannot take is left to this one', async () => {
    const snapshot = t.ctx.runtime.current()!;
    const screener = await pool.load(await snapshot.records());
    const request: RunRequest = {
      runId: 'val_thread_test',
      organization: null,
      versions: snapshot.versions,
      fingerprint: snapshot.fingerprint,
      options: runOptions({ quick: true, seed: 7 }),
      profile: BUILT_IN_RUN_PROFILE,
      floor: 50,
      signingKey: KEY.privateKey,
      clockOffsetMs: 0,
      concurrency: 4,
    };
    here = await produceRun(request, {
      db: t.ctx.database.db,
      records: await snapshot.records(),
      engine: screenerEngine(screener),
      latencyEngine: screenerEngine(screener, {}),
      pace: () => Promise.resolve(),
      onProgress: () => undefined,
    });
    const niceBefore = threadNiceValues();
    // (Unless the tests themselves were started at the lowest priority.)
    if (niceBefore && getPriority() < 19)
      assert.ok(!niceBefore.includes(19), 'no thread runs at the lowest priority before a run');
    const thread = new ValidationThread(t.env.config.database, pool);
    try {
      const interactive = new InFlight().shared;
      const phases = new Set<string>();
      const twice: RunResult[] = [];
      for (let i = 0; i < 2; i++) {
        const running = thread.run(request, screener, {
          onProgress: (p) => phases.add(p.phase),
          interactive,
          shelves: snapshot.shelves,
        });
        assert.ok(running, 'the thread takes the run');
        twice.push(await running);
      }
      // The thread parsed the records from the node's shelves: the figures of the records read here.
      assert.deepEqual(figures(twice[0]!), figures(here));
      // The second run reads the records the thread kept: the same figures.
      assert.deepEqual(figures(twice[1]!), figures(here));
      assert.ok(phases.size >= 3, [...phases].join(', '));
      // The validation thread, still kept for the next run, runs at the lowest CPU priority.
      const nice = threadNiceValues();
      if (nice) assert.ok(nice.includes(19), `thread nice values: ${nice.join(' ')}`);
      // Lists that are not the pool's (a screener on this thread), or no shared count: not taken.
      const shelves = snapshot.shelves;
      assert.equal(
        thread.run(request, snapshot.index, { onProgress: () => undefined, interactive, shelves }),
        undefined,
      );
      assert.equal(
        thread.run(request, screener, { onProgress: () => undefined, interactive: undefined, shelves }),
        undefined,
      );
    } finally {
      await thread.close();
    }
  });

  it('is done on the HTTP thread by a node without matching threads, with the same figures', async () => {
    assert.ok(here, 'the run above gave the figures to compare with');
    const org = await seedOrg(t.ctx);
    const queued = await t.request('POST', '/v1/validation-runs', { key: org.key, body: { quick: true, seed: 7 } });
    assert.equal(queued.status, 202, queued.text);
    assert.equal(await t.ctx.jobs.validation.job.runUntilIdle(), 1);
    const run = await t.request('GET', `/v1/validation-runs/${queued.body.data.id}`, { key: org.key });
    assert.equal(run.body.data.status, 'completed', run.body.data.error ?? '');
    const json = await t.request('GET', `/v1/validation-runs/${queued.body.data.id}/report.json`, { key: org.key });
    const report = JSON.parse(json.text) as Record<string, unknown>;
    const expected = JSON.parse(here.json) as Record<string, unknown>;
    for (const part of ['selfScreen', 'perturbations', 'negatives', 'identifiers'])
      assert.deepEqual(report[part], expected[part], part);
  });
});
