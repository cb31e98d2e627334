#!/usr/bin/env node
// Prints the figure tables of docs/identifiers.md from bench/results/identifiers.json (written by
// node dist/bench/identifiers.js), so the page quotes only what the benchmark wrote.
import { readFileSync } from 'node:fs';

const rows = JSON.parse(readFileSync(process.argv[2] ?? 'bench/results/identifiers.json', 'utf8'));
const perSource = /^(\S+) (\S+) (read|indexed)$/;
const amount = (r) => `${r.value.toLocaleString('en')}${r.unit === '%' ? '%' : ` ${r.unit}`}`;
const target = (r) => (r.target === null ? '-' : `${r.target.toLocaleString('en')}${r.unit === '%' ? '%' : ''}`);

console.log('| Figure | Value | Target |\n|---|---:|---:|');
for (const r of rows.filter((x) => !perSource.test(x.name))) console.log(`| ${r.name} | ${amount(r)} | ${target(r)} |`);

const sources = new Map();
for (const r of rows) {
  const m = perSource.exec(r.name);
  if (!m) continue;
  const [, source, type, what] = m;
  if (!sources.has(source)) sources.set(source, new Map());
  const types = sources.get(source);
  types.set(type, { ...types.get(type), [what]: r.value });
}
console.log('\n| Source | Read / indexed, per type |\n|---|---|');
for (const [source, types] of sources)
  console.log(
    `| ${source} | ${[...types]
      .sort((a, b) => b[1].read - a[1].read)
      .map(([t, v]) => `${t} ${v.read.toLocaleString('en')}/${v.indexed.toLocaleString('en')}`)
      .join(', ')} |`,
  );
