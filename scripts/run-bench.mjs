#!/usr/bin/env node
// npm run bench: every performance benchmark, one after another, each in its own process so that
// memory figures are not mixed. Quality figures are `npm run bench:quality`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const benches = [
  ['matching alone (all lists, one core)', ['--expose-gc', 'dist/bench/matching.js']],
  ['POST /screen over HTTP (SQLite, autocannon)', ['dist/bench/http.js']],
  ['ownership derivation (3M entities, 500k stakes)', ['--max-old-space-size=4096', 'dist/bench/ownership.js']],
  ['rescreening monitors', ['dist/bench/rescreen.js']],
  ['batch screening: 100,000 CSV rows, interactive p99, kill -9 and restart', ['dist/bench/batch.js']],
];
let failed = 0;
for (const [title, args] of benches) {
  const script = args[args.length - 1];
  if (!existsSync(script)) {
    console.log(`\n== ${title}: ${script} not built, skipped`);
    continue;
  }
  console.log(`\n== ${title}`);
  const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
