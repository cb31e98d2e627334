#!/usr/bin/env node
// Renders docs/scoring.md from the scoring table, the knobs and the part rules (after `npm run build`).
// `--check` exits 1 when the committed page differs instead of writing it.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { renderScoringDoc } = await import(path.join(root, 'dist/src/matching/scoring-doc.js'));
const target = path.join(root, 'docs/scoring.md');
const page = renderScoringDoc();
if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // missing: differs
  }
  if (committed !== page) {
    console.error('docs/scoring.md differs from the scoring table: run node scripts/render-scoring.mjs');
    process.exit(1);
  }
  console.log('docs/scoring.md is up to date');
} else {
  writeFileSync(target, page);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
