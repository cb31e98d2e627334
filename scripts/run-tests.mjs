#!/usr/bin/env node
// Runs every compiled test file by explicit path: node's runner exits 0 on a glob that finds
// nothing, so an empty set is an error here. Test files run against SQLite and, where
// TEST_DATABASE_URL (or the local PostgreSQL) is reachable, PostgreSQL too (see test/helpers).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function find(dir) {
  const out = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...find(path));
    else if (entry.endsWith('.test.js')) out.push(path);
  }
  return out;
}

const filter = process.argv.slice(2);
let files = find('dist/test').sort();
if (filter.length) files = files.filter((f) => filter.some((pattern) => f.includes(pattern)));
if (files.length === 0) {
  console.error('run-tests: no test files found under dist/test (did the build run?)');
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const result = spawnSync(
  process.execPath,
  ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: process.env },
);
process.exit(result.status ?? 1);
