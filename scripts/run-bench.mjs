#!/usr/bin/env node
// npm run bench: every performance benchmark, one after another, each in its own process so that
// memory figures are not mixed. Quality figures are `npm run bench:quality`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const benches = [
  ['matching alone (all lists, one core)', ['--expose-gc', 'dist/bench/matching.js']],
  ['POST /screen over HTTP (SQLite, autocannon)', ['dist/bench/http.js']],
  // Options after `npm run bench --` reach it too: --duration=SECONDS (per rate), --rates=, --setups=, --cli=.
  ['open-loop latency (SQLite, PostgreSQL one and two nodes)', ['dist/bench/open-loop.js']],
  ['ownership derivation (3M entities, 500k stakes)', ['--max-old-space-size=4096', 'dist/bench/ownership.js']],
  ['rescreening monitors', ['dist/bench/rescreen.js']],
  // Options: --monitors=N (default 1,000,000), --nodes=1x2,1,2 (N nodes, xT matching threads each); needs PostgreSQL.
  ['rescreening across nodes (PostgreSQL, one node and two)', ['dist/bench/rescreen-nodes.js']],
  // Options: --monitors=N (default 100,000), --changes=N (default 20).
  ['list updates: publisher change to signed webhook, delta and full rescreen', ['dist/bench/list-updates.js']],
  ['profile backtest: 100,000 stored screenings, interactive p99', ['dist/bench/backtest.js']],
  ['batch screening: 100,000 CSV rows, interactive p99, kill -9 and restart', ['dist/bench/batch.js']],
  // Options after `npm run bench --` go to it: --rounds=N (kill -9 rounds), --soak=SECONDS, --rate=N, --every=SECONDS.
  ['reliability (kill -9 rounds, soak)', ['dist/bench/reliability.js', '--rounds=10', '--soak=120', '--every=20']],
];
// `npm run bench -- --only=reliability --soak=1800`: one benchmark (by a word of its title), with options.
const options = process.argv.slice(2);
const only = options.find((o) => o.startsWith('--only='))?.slice('--only='.length);
let failed = 0;
for (const [title, baseArgs] of benches) {
  if (only && !title.includes(only)) continue;
  const script = baseArgs.find((a) => a.endsWith('.js'));
  const passed = options.filter((o) => !o.startsWith('--only='));
  // numberArg takes the first occurrence: options given win over the defaults after them.
  const takesOptions = [
    'dist/bench/reliability.js',
    'dist/bench/open-loop.js',
    'dist/bench/rescreen-nodes.js',
  ].includes(script);
  const args = takesOptions ? [script, ...passed, ...baseArgs.slice(1)] : baseArgs;
  if (!existsSync(script)) {
    console.log(`\n== ${title}: ${script} not built, skipped`);
    continue;
  }
  console.log(`\n== ${title}`);
  const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
