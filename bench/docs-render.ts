/**
 * `npm run docs`: renders the tables that must match the code or the measurements, between markers in
 * the Markdown files, so that none is typed by hand:
 *   README.md            <!-- figures:begin --> ... <!-- figures:end -->  headline rows of bench/results/*.json
 *   docs/benchmarks.md   <!-- results:begin --> ... <!-- results:end -->  every row of every results file
 *   docs/configuration.md <!-- config:begin --> ... <!-- config:end -->  CONFIG_VARIABLES of src/infra/config.ts
 *   docs/multi-node.md   <!-- multinode:begin --> ... <!-- multinode:end -->  PostgreSQL rows of bench/results/open-loop.json
 * `--check` writes nothing and exits 1 naming each file whose committed text differs (the test in
 * test/docs runs the same comparison in `npm test`).
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES, type ConfigVariable } from '../src/infra/config.js';
import type { BenchResult, ResultRow } from './results.js';

export interface Rendered {
  file: string;
  /** The text with every marked block rendered. */
  text: string;
  /** The committed text. */
  current: string;
}

/** A cell of a Markdown table: pipes escaped, no line breaks. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

function formatValue(row: ResultRow): string {
  const value =
    typeof row.value === 'number' ? row.value.toLocaleString('en-US', { maximumFractionDigits: 3 }) : row.value;
  if (row.unit === '') return typeof row.value === 'string' ? `\`${value}\`` : value;
  return row.unit === '%' ? `${value}%` : `${value} ${row.unit}`;
}

/**
 * A results file in the shape of bench/results.ts, or a plain array of rows (a benchmark that has not
 * moved to writeResult yet): the missing title, command and date are said as unknown, never invented.
 */
function normalizeResult(file: string, raw: unknown): BenchResult {
  const body = (Array.isArray(raw) ? { rows: raw } : raw) as Partial<BenchResult> & Record<string, unknown>;
  if (!Array.isArray(body.rows))
    throw new Error(`bench/results/${file}: needs rows (see docs/benchmarks.md, "Result files")`);
  const benchmark = file.replace(/\.json$/, '');
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  const note = text(body.note);
  return {
    benchmark,
    title: text(body.title) ?? benchmark,
    command: text(body.command) ?? `node dist/bench/${benchmark}.js`,
    measuredAt: text(body.measuredAt) ?? 'date not recorded',
    machine: text(body.machine) ?? 'machine not recorded',
    ...(note ? { note } : {}),
    rows: body.rows.map((row: ResultRow) => {
      const { target, ...rest } = row;
      return target === undefined || target === null ? rest : { ...rest, target: String(target) };
    }),
  };
}

export function readResults(root: string): BenchResult[] {
  const dir = join(root, 'bench', 'results');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      return normalizeResult(f, JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown);
    });
}

const day = (iso: string) => /^\d{4}-\d{2}-\d{2}/.exec(iso)?.[0] ?? iso;

/** The README's one table of current figures: the headline rows. */
export function figuresTable(results: BenchResult[]): string {
  const lines = ['| Figure | Value | Target | Measured by |', '|---|---|---|---|'];
  for (const r of results)
    for (const row of r.rows.filter((x) => x.headline))
      lines.push(
        `| ${cell(row.name)} | ${cell(formatValue(row))} | ${cell(row.target ?? '')} | [${r.benchmark}](docs/benchmarks.md#${r.benchmark}), ${day(r.measuredAt)} |`,
      );
  return lines.join('\n');
}

/** When a result was measured, to the minute, or what its file says instead. */
function when(result: BenchResult): string {
  return /^\d{4}-\d{2}-\d{2}T/.test(result.measuredAt)
    ? `${result.measuredAt.replace('T', ' ').slice(0, 16)} UTC`
    : result.measuredAt;
}

/** docs/benchmarks.md: every results file with all its rows. */
export function resultsSection(results: BenchResult[]): string {
  const out: string[] = [];
  for (const r of results) {
    out.push(`<a id="${r.benchmark}"></a>`, `### ${cell(r.title)}`, '');
    out.push(`\`${r.command}\`, ${when(r)}, ${r.machine}.`);
    if (r.note) out.push(`Conditions: ${r.note}.`.replace(/\.\.$/, '.'));
    out.push('', '| Figure | Value | Target |', '|---|---|---|');
    for (const row of r.rows) out.push(`| ${cell(row.name)} | ${cell(formatValue(row))} | ${cell(row.target ?? '')} |`);
    out.push('');
  }
  return out.join('\n').trimEnd();
}

/** The open-loop figures of PostgreSQL nodes (and SQLite's capacity beside them) for docs/multi-node.md. */
const MULTI_NODE_ROWS =
  /^(sqlite capacity|pg2? capacity|pg \/ sqlite|pg2? \d+\/s (p50|p99|errors|node CPU per screening)$|pg2? rows (inserted|updated))/;

/** docs/multi-node.md: PostgreSQL, one node and two nodes on one database, from the open-loop results. */
export function multiNodeSection(results: BenchResult[]): string {
  const openLoop = results.find((r) => r.benchmark === 'open-loop');
  const rows = openLoop?.rows.filter((row) => MULTI_NODE_ROWS.test(row.name)) ?? [];
  if (!openLoop || !rows.some((row) => row.name.startsWith('pg'))) {
    return '_Not measured yet: `npm run bench -- --only=open-loop` with PostgreSQL reachable, then `npm run docs`._';
  }
  const out = [`\`${openLoop.command}\`, ${when(openLoop)}, ${openLoop.machine}.`];
  if (openLoop.note) out.push(`Conditions: ${openLoop.note}.`);
  out.push('', '| Figure | Value | Target |', '|---|---|---|');
  // A figure written once per rate (rows per screening) is shown once, as last measured.
  const seen = new Map<string, ResultRow>();
  for (const row of rows) seen.set(row.name, row);
  for (const row of seen.values())
    out.push(`| ${cell(row.name)} | ${cell(formatValue(row))} | ${cell(row.target ?? '')} |`);
  return out.join('\n');
}

function range(v: ConfigVariable): string {
  if (v.values) return v.values.map((x) => `\`${x}\``).join(', ');
  if (v.kind === 'secret' && v.min !== undefined) return `at least ${v.min} characters`;
  if (v.min !== undefined && v.max !== undefined) return `${v.min} to ${v.max.toLocaleString('en-US')}`;
  const kinds: Record<ConfigVariable['kind'], string> = {
    choice: '',
    text: 'text',
    path: 'a folder',
    url: 'an address',
    integer: 'a whole number',
    number: 'a number',
    boolean: '`true` or `false`',
    duration: 'a duration (`500ms`, `10s`, `5m`, `4h`, `1d`)',
    durations: 'durations, comma-separated',
    secret: 'secret',
  };
  return kinds[v.kind];
}

/** docs/configuration.md: every variable of the configuration schema, by group. */
export function configurationSection(variables: readonly ConfigVariable[] = CONFIG_VARIABLES): string {
  const out: string[] = [];
  for (const group of [...new Set(variables.map((v) => v.group))]) {
    out.push(`### ${group}`, '', '| Variable | Default | Range | What it does |', '|---|---|---|---|');
    for (const v of variables.filter((x) => x.group === group)) {
      const fallback = v.defaultText ?? (v.default === undefined ? 'unset' : `\`${String(v.default)}\``);
      out.push(`| \`${v.name}\` | ${cell(fallback)} | ${cell(range(v))} | ${cell(v.description)} |`);
    }
    out.push('');
  }
  return out.join('\n').trimEnd();
}

/** Replaces the text between `<!-- name:begin -->` and `<!-- name:end -->`. */
export function replaceBlock(text: string, name: string, body: string, file: string): string {
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${file}: the markers ${begin} and ${end} are missing`);
  return `${text.slice(0, a + begin.length)}\n<!-- generated by npm run docs from ${name === 'config' ? 'src/infra/config.ts' : 'bench/results/*.json'}; do not edit -->\n${body}\n${text.slice(b)}`;
}

export function renderDocs(root: string): Rendered[] {
  const results = readResults(root);
  const blocks: [string, string, string][] = [
    ['README.md', 'figures', figuresTable(results)],
    ['docs/benchmarks.md', 'results', resultsSection(results)],
    ['docs/configuration.md', 'config', configurationSection()],
    ['docs/multi-node.md', 'multinode', multiNodeSection(results)],
  ];
  return blocks.map(([file, name, body]) => {
    const current = readFileSync(join(root, file), 'utf8');
    return { file, current, text: replaceBlock(current, name, body, file) };
  });
}

if (process.argv[1] && /docs-render\.(ts|js)$/.test(process.argv[1])) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const r of renderDocs(process.cwd())) {
    if (r.text === r.current) continue;
    if (check) {
      console.error(`${r.file} differs from what npm run docs renders: run npm run docs and commit it`);
      stale++;
    } else {
      writeFileSync(join(process.cwd(), r.file), r.text);
      console.log(`rendered ${r.file}`);
    }
  }
  process.exitCode = stale ? 1 : 0;
}
