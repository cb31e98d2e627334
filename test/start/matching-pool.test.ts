import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Worker } from 'node:worker_threads';
import { MatchingIndex, summarizeOutcome } from '../../src/matching/index.js';
import { MatchingPool, sourceLabel } from '../../src/start/matching-pool.js';
import { organization, person, sampleRecords } from '../helpers/harness.js';

const records = [...sampleRecords().us_ofac, ...sampleRecords().un_csl];
const queries = ['Rustam Karimov', 'KARIMOV Rustam', 'Zarya Shipping', 'Blue Horizon Trading', 'Maria Lopez'];

/** The threads of a pool, for crash injection only. */
function workersOf(pool: MatchingPool): Worker[] {
  return (pool as unknown as { threads: { worker: Worker }[] }).threads.map((t) => t.worker);
}

test('a pool answers exactly what the same index answers on this thread', async () => {
  const pool = new MatchingPool(2);
  try {
    const screener = await pool.load(records);
    const inline = MatchingIndex.build(records);
    for (const name of queries) {
      for (const options of [{}, { groupByCluster: true }, { floor: 0, maxMatches: 3 }]) {
        assert.deepEqual(
          await screener.screen({ name }, options),
          summarizeOutcome(inline.screen({ name }, options), sourceLabel),
          `${name} ${JSON.stringify(options)}`,
        );
      }
    }
    // Concurrent screenings spread over both threads and each gets its own answer.
    const answers = await Promise.all(queries.flatMap((name) => [name, name]).map((name) => screener.screen({ name })));
    answers.forEach((answer, i) =>
      assert.deepEqual(answer, summarizeOutcome(inline.screen({ name: queries[Math.floor(i / 2)]! }), sourceLabel)),
    );
  } finally {
    await pool.close();
  }
});

test("a query's identifiers cross to the matching thread: the answer is the one this thread gives", async () => {
  const pool = new MatchingPool(1);
  try {
    const screener = await pool.load(records);
    const inline = MatchingIndex.build(records);
    const query = {
      name: 'Maria Lopez',
      identifiers: [{ type: 'passport' as const, value: 'AB 123-4567', country: 'UZ' }],
    };
    const answer = await screener.screen(query);
    assert.deepEqual(answer, summarizeOutcome(inline.screen(query), sourceLabel));
    // Found by the passport alone: the name is unrelated.
    assert.equal(answer.entityId?.endsWith(':1001') || answer.entityId?.endsWith(':9001'), true, answer.matchesJson);
    assert.match(answer.matchesJson, /passport AB1234567 is the listed person's passport/);
  } finally {
    await pool.close();
  }
});

test('screenings started together travel as one batch and each gets its own answer, also when the answers come back in parts', async () => {
  const pool = new MatchingPool(1);
  try {
    const screener = await pool.load(records);
    const inline = MatchingIndex.build(records);
    // Enough work that the matching thread answers the batch in several messages.
    const jobs = Array.from({ length: 600 }, (_, i) => ({
      name: queries[i % queries.length]!,
      options: i % 3 === 0 ? { groupByCluster: true } : i % 3 === 1 ? { floor: 0, maxMatches: 2 } : {},
    }));
    assert.equal(pool.busySeconds, 0, 'no time spent screening before any screening');
    const started = performance.now();
    const answers = await Promise.all(jobs.map((j) => screener.screen({ name: j.name }, j.options)));
    const wall = (performance.now() - started) / 1000;
    answers.forEach((answer, i) =>
      assert.deepEqual(
        answer,
        summarizeOutcome(inline.screen({ name: jobs[i]!.name }, jobs[i]!.options), sourceLabel),
        `job ${i}`,
      ),
    );
    // Every answer counted the thread's time on it: some, and never more than the time that passed.
    assert.ok(pool.busySeconds > 0 && pool.busySeconds <= wall, `${pool.busySeconds} s busy in ${wall} s`);
  } finally {
    await pool.close();
  }
});

test('remarks, which the threads are not sent, change nothing they answer', async () => {
  const remarked = records.map((r) => ({
    ...r,
    remarks: `Also known as Maria Lopez; linked to Zarya Shipping (${r.id})`,
    sourceUrl: `https://example.test/${r.id}`,
  }));
  const pool = new MatchingPool(2);
  try {
    const screener = await pool.load(remarked);
    const inline = MatchingIndex.build(remarked);
    for (const name of queries)
      assert.deepEqual(await screener.screen({ name }), summarizeOutcome(inline.screen({ name }), sourceLabel), name);
    // The caller's records keep them.
    assert.match(remarked[0]!.remarks, /Maria Lopez/);
  } finally {
    await pool.close();
  }
});

test('generations: the old one answers until retired, then it is gone; the new one sees the new lists', async () => {
  const pool = new MatchingPool(1, { retireAfterMs: 50 });
  try {
    const first = await pool.load(records);
    const added = organization('us_ofac', '9001', 'NEPTUNE MARITIME HOLDINGS');
    const second = await pool.load([...records, added]);
    assert.notEqual(first.generation, second.generation);
    assert.equal((await first.screen({ name: 'Neptune Maritime Holdings' })).matchCount, 0);
    assert.equal((await second.screen({ name: 'Neptune Maritime Holdings' })).entityId, 'us_ofac:9001');
    const retired = pool.retire(first);
    // Still answering during the grace period.
    assert.equal((await first.screen({ name: 'Rustam Karimov' })).riskLevel, 'high');
    await retired;
    await assert.rejects(first.screen({ name: 'Rustam Karimov' }), /retired/);
    assert.equal((await second.screen({ name: 'Rustam Karimov' })).riskLevel, 'high');
  } finally {
    await pool.close();
  }
});

test('a thread that dies fails only its own screenings and is replaced with every live generation', async () => {
  const pool = new MatchingPool(1);
  try {
    const screener = await pool.load([...records, person('un_csl', '77', 'ABDULRAHMAN, Khalid')]);
    const [worker] = workersOf(pool);
    await worker!.terminate();
    // The replacement builds the generation again; a screening waits for it instead of failing.
    const outcome = await screener.screen({ name: 'Khalid Abdul Rahman' });
    assert.equal(outcome.entityId, 'un_csl:77');
    assert.notEqual(workersOf(pool)[0], worker);
  } finally {
    await pool.close();
  }
});

test('closing the pool refuses new work', async () => {
  const pool = new MatchingPool(1);
  await pool.load(records);
  await pool.close();
  await assert.rejects(pool.load(records), /closed/);
});

test("an analyst's screening waits behind at most two background jobs, however many a run has started", async () => {
  const pool = new MatchingPool(1);
  try {
    const screener = await pool.load(records);
    const inline = MatchingIndex.build(records);
    const order: string[] = [];
    const background = Array.from({ length: 60 }, (_, i) =>
      screener
        .screen({ name: queries[i % queries.length]! }, {}, { background: true })
        .then((answer) => (order.push('background'), answer)),
    );
    const interactive = screener
      .screen({ name: 'Zarya Shipping' })
      .then((answer) => (order.push('interactive'), answer));
    const answers = await Promise.all([...background, interactive]);
    // Every background job is still answered, and answered right.
    answers
      .slice(0, 60)
      .forEach((answer, i) =>
        assert.deepEqual(answer, summarizeOutcome(inline.screen({ name: queries[i % queries.length]! }), sourceLabel)),
      );
    assert.equal(order.length, 61);
    assert.ok(order.indexOf('interactive') <= 2, `answered after ${order.indexOf('interactive')} background jobs`);
  } finally {
    await pool.close();
  }
});

test("a background job that reaches the thread while an analyst's screening is on its way waits for it", async () => {
  const pool = new MatchingPool(1);
  try {
    const screener = await pool.load(records);
    const inline = MatchingIndex.build(records);
    // Slow background jobs (many option sets each): two go to the thread at once, the analyst's
    // screening follows them at the end of this turn, while the thread is still on the first.
    const variants = Array.from({ length: 400 }, (_, i) => ({ floor: i % 2 === 0 ? 0 : 0.5, maxMatches: 1 + (i % 5) }));
    const order: string[] = [];
    const background = Array.from({ length: 6 }, () =>
      screener.screenVariants({ name: 'Rustam Karimov' }, variants, { background: true }).then((answers) => {
        order.push('background');
        return answers;
      }),
    );
    const interactive = screener.screen({ name: 'Zarya Shipping' }).then((answer) => {
      order.push('interactive');
      return answer;
    });
    const [answer, ...backgroundAnswers] = await Promise.all([interactive, ...background]);
    assert.deepEqual(answer, summarizeOutcome(inline.screen({ name: 'Zarya Shipping' }), sourceLabel));
    const expected = inline
      .screenVariants({ name: 'Rustam Karimov' }, variants)
      .map((o) => summarizeOutcome(o, sourceLabel));
    for (const answers of backgroundAnswers) assert.deepEqual(answers, expected);
    assert.ok(order.indexOf('interactive') <= 1, `answered after ${order.indexOf('interactive')} background jobs`);
  } finally {
    await pool.close();
  }
});
