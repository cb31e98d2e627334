/**
 * A digest of what the list adapters read: every list file in ../shared/data/lists and the test
 * fixtures, parsed by the adapters and written as sorted JSON, one file per case. Written before
 * and after a change to the adapters, two digests prove that the records are the same, or show
 * exactly where they differ.
 *
 *   node dist/bench/list-digest.js write DIR      parse every case into DIR/<case>.json
 *   node dist/bench/list-digest.js compare A B    per case: records, fields and aliases that differ
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADAPTERS } from '../src/lists/adapters/index.js';
import type { ListRecord, OfficialSourceId } from '../src/lists/model.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const LISTS = path.resolve(ROOT, '../shared/data/lists');
const FIXTURES = path.join(ROOT, 'test/fixtures/lists');

interface Case {
  name: string;
  source: OfficialSourceId;
  /** A directory read in place, or files copied into a temporary one under new names. */
  dir?: string;
  files?: Record<string, string>;
}

const ofac = (p: string): string => path.join(LISTS, 'us_ofac', p);
const CASES: Case[] = [
  { name: 'us_ofac', source: 'us_ofac', dir: path.join(LISTS, 'us_ofac') },
  { name: 'us_ofac-2021-full-set', source: 'us_ofac', dir: ofac('2021-07-07_full_set') },
  { name: 'us_ofac-consolidated', source: 'us_ofac', dir: ofac('consolidated_non_sdn') },
  {
    name: 'us_ofac-consolidated-csv',
    source: 'us_ofac',
    files: Object.fromEntries(
      ['cons_prim.csv', 'cons_add.csv', 'cons_alt.csv', 'cons_comments.csv'].map((f) => [
        f,
        ofac(`consolidated_non_sdn/${f}`),
      ]),
    ),
  },
  { name: 'us_ofac-advanced', source: 'us_ofac', dir: ofac('consolidated_non_sdn/2020-03-17_advanced_xml') },
  {
    name: 'us_ofac-as-sdn-xml',
    source: 'us_ofac',
    files: { 'SDN.XML': ofac('consolidated_non_sdn/consolidated.xml') },
  },
  {
    name: 'us_ofac-as-sdn-advanced',
    source: 'us_ofac',
    files: { 'SDN_ADVANCED.XML': ofac('consolidated_non_sdn/2020-03-17_advanced_xml/cons_advanced.xml') },
  },
  { name: 'us_csl', source: 'us_csl', dir: path.join(LISTS, 'us_csl') },
  { name: 'us_csl-2025-sample', source: 'us_csl', dir: path.join(LISTS, 'us_csl/sample_2025-06_13rows') },
  { name: 'us_csl-json-fixture', source: 'us_csl', dir: path.join(FIXTURES, 'us_csl/json') },
  { name: 'eu_csl', source: 'eu_csl', dir: path.join(LISTS, 'eu_csl') },
  { name: 'eu_csl-csv-fixture', source: 'eu_csl', dir: path.join(FIXTURES, 'eu_csl/csv') },
  { name: 'uk_csl', source: 'uk_csl', dir: path.join(LISTS, 'uk_csl') },
  { name: 'uk_csl-2020-csv', source: 'uk_csl', dir: path.join(LISTS, 'uk_csl/2020-04-27_conlist_csv') },
  { name: 'uk_csl-fcdo-xml', source: 'uk_csl', dir: path.join(LISTS, 'uk_csl/format_sample_fcdo_xml') },
  { name: 'un_csl', source: 'un_csl', dir: path.join(LISTS, 'un_csl') },
  { name: 'au_dfat', source: 'au_dfat', dir: path.join(LISTS, 'au_dfat') },
  { name: 'ch_seco-fixture', source: 'ch_seco', dir: path.join(FIXTURES, 'ch_seco/whole-list') },
  { name: 'ch_seco-amendment', source: 'ch_seco', dir: path.join(LISTS, 'ch_seco/format_sample') },
  { name: 'ca_gac', source: 'ca_gac', dir: path.join(LISTS, 'ca_gac') },
  { name: 'ca_gac-2020', source: 'ca_gac', dir: path.join(LISTS, 'ca_gac/2020-04_old_schema') },
  { name: 'jp_mof', source: 'jp_mof', dir: path.join(LISTS, 'jp_mof') },
];

/** JSON with object keys sorted, so equal records give equal text. */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, stable((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

async function write(out: string): Promise<void> {
  mkdirSync(out, { recursive: true });
  for (const c of CASES) {
    const sources = c.files ? Object.values(c.files) : [c.dir!];
    if (!sources.every((s) => existsSync(s))) {
      console.log(`${c.name}: absent, skipped`);
      continue;
    }
    let dir = c.dir;
    let temp: string | undefined;
    if (c.files) {
      temp = dir = mkdtempSync(path.join(os.tmpdir(), 'list-digest-'));
      for (const [name, from] of Object.entries(c.files)) copyFileSync(from, path.join(temp, name));
    }
    try {
      const parsed = await ADAPTERS[c.source].parse(dir!);
      const records = [...parsed.records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const doc = { ...parsed, records };
      writeFileSync(path.join(out, `${c.name}.json`), JSON.stringify(stable(doc), null, 1));
      console.log(`${c.name}: ${records.length} records, ${parsed.warnings.length} warnings`);
    } catch (err) {
      writeFileSync(path.join(out, `${c.name}.json`), JSON.stringify({ error: (err as Error).message }));
      console.log(`${c.name}: error ${(err as Error).message}`);
    } finally {
      if (temp) rmSync(temp, { recursive: true, force: true });
    }
  }
}

type Doc = { records?: ListRecord[]; warnings?: string[]; error?: string } & Record<string, unknown>;

function compare(a: string, b: string): void {
  let same = true;
  for (const file of readdirSync(a).filter((f) => f.endsWith('.json'))) {
    const before = JSON.parse(readFileSync(path.join(a, file), 'utf8')) as Doc;
    const afterPath = path.join(b, file);
    if (!existsSync(afterPath)) {
      console.log(`${file}: missing after`);
      same = false;
      continue;
    }
    const after = JSON.parse(readFileSync(afterPath, 'utf8')) as Doc;
    const lines: string[] = [];
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (key === 'records') continue;
      if (JSON.stringify(before[key]) !== JSON.stringify(after[key]))
        lines.push(
          `  ${key}: ${JSON.stringify(before[key])?.slice(0, 200)} -> ${JSON.stringify(after[key])?.slice(0, 200)}`,
        );
    }
    const byId = new Map((after.records ?? []).map((r) => [r.id, r]));
    if ((before.records ?? []).length !== (after.records ?? []).length)
      lines.push(`  records: ${(before.records ?? []).length} -> ${(after.records ?? []).length}`);
    const fieldDiffs = new Map<string, number>();
    const examples = new Map<string, string[]>();
    let aliasesBefore = 0;
    let aliasesAfter = 0;
    for (const r of before.records ?? []) {
      const s = byId.get(r.id);
      if (!s) {
        lines.push(`  record ${r.id} gone`);
        continue;
      }
      aliasesBefore += r.aliases.length;
      aliasesAfter += s.aliases.length;
      for (const key of new Set([...Object.keys(r), ...Object.keys(s)])) {
        const x = JSON.stringify((r as unknown as Record<string, unknown>)[key]);
        const y = JSON.stringify((s as unknown as Record<string, unknown>)[key]);
        if (x === y) continue;
        fieldDiffs.set(key, (fieldDiffs.get(key) ?? 0) + 1);
        const list = examples.get(key) ?? [];
        if (list.length < 3) list.push(`${r.id}: ${x?.slice(0, 300)}\n        -> ${y?.slice(0, 300)}`);
        examples.set(key, list);
      }
    }
    for (const [key, n] of fieldDiffs) {
      lines.push(`  ${key}: ${n} records differ`);
      for (const e of examples.get(key) ?? []) lines.push(`      ${e}`);
    }
    if (aliasesBefore !== aliasesAfter) lines.push(`  aliases in all: ${aliasesBefore} -> ${aliasesAfter}`);
    if (lines.length) {
      same = false;
      console.log(`${file}:\n${lines.join('\n')}`);
    }
  }
  console.log(same ? 'identical' : 'differences above');
}

const [mode, a, b] = process.argv.slice(2);
if (mode === 'write' && a) await write(a);
else if (mode === 'compare' && a && b) compare(a, b);
else {
  console.error('usage: list-digest write DIR | compare DIR_A DIR_B');
  process.exit(2);
}
