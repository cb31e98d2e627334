// Lint: the recommended rules, plus the architecture of STYLE.md and README ("Layout"): dependencies
// point one way (cli -> start -> http -> console -> domain services -> stores -> infra), domains import each other
// in one order, the matching engine is a pure library, a room is entered through its face (index.ts), no
// module imports itself back through others (house/no-import-loop, type-only imports included), and files
// and functions stay short enough to read. The house/ rules are in scripts/eslint-rules.mjs.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import house from './scripts/eslint-rules.mjs';

/**
 * The domains in dependency order: each may import only the ones before it (and infra/), so no loop
 * between domains can form. text (the publishers' text conventions), formats (file formats) and
 * identifiers (identifier and country rules) are pure libraries under all of them; audit (the hash-chained audit log) comes next: every domain appends to it.
 * Among them: lists imports neither ownership nor monitoring (ownership
 * reads the lists; the derived source is handed in by start/services.ts), webhooks does not import
 * monitoring (monitoring writes webhook deliveries). A new domain goes where its imports put it.
 */
const DOMAINS = [
  'text',
  'formats',
  'identifiers',
  'audit',
  'lists',
  'matching',
  'ownership',
  'tenants',
  'accounts',
  'decisions',
  'screening',
  'profiles',
  'webhooks',
  'monitoring',
  'batches',
  'validation',
];

/** Pure libraries: no database, no configuration, no clock; they may not import infra/. */
const PURE = ['text', 'formats', 'identifiers', 'matching'];

/** An import of folder `dir` under src/, from anywhere below src/. */
const folder = (dir, message) => ({ group: [`**/${dir}/*`, `**/${dir}/**`], message });

/** What no domain imports: the HTTP layer, the composition root, the command line. */
const ABOVE_DOMAINS = [
  folder('http', 'A domain must not import the HTTP layer (http -> domain services -> stores -> infra).'),
  folder('console', 'A domain must not import the web console (it sits beside the HTTP layer).'),
  folder('start', 'Only the composition root wires domains; a domain must not import start/.'),
  folder('cli', 'A domain must not import the command line.'),
];

const later = (domain) => DOMAINS.slice(DOMAINS.indexOf(domain) + 1);

const restrictions = DOMAINS.map((domain) => ({
  files: [`src/${domain}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...ABOVE_DOMAINS,
          ...later(domain).map((dir) =>
            folder(
              dir,
              `${domain}/ must not import ${dir}/: a domain imports only those before it in ${DOMAINS.join(' < ')} (eslint.config.js)`,
            ),
          ),
          // The matching engine is a pure library even of infra: records in, explained matches out; so are
          // the libraries it reads (identifiers/, and formats/ under it).
          ...(PURE.includes(domain) ? [folder('infra', `${domain}/ is a pure library: no infra/.`)] : []),
        ],
      },
    ],
  },
}));

/** infra/ is the floor (configuration, database, clock, jobs): it imports no domain and nothing above them. */
const infraRule = {
  files: ['src/infra/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [...DOMAINS, 'http', 'console', 'start', 'cli'].map((dir) =>
          folder(dir, 'infra/ imports no domain, and neither the HTTP layer nor the composition root.'),
        ),
      },
    ],
  },
};

/**
 * Above the domains: cli -> start -> http. Command files take what they need from cli/runtime.ts,
 * never from cli/main.ts, which imports them.
 */
const layerRules = [
  {
    files: ['src/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            folder('start', 'http/ is wired by start/, not the other way.'),
            folder('cli', 'http/ must not import cli/.'),
          ],
        },
      ],
    },
  },
  {
    // The web console: pages on the domain services, registered by http/server.ts under /console.
    files: ['src/console/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            folder('http', 'console/ is registered by http/, not the other way.'),
            folder('start', 'console/ is wired by start/, not the other way.'),
            folder('cli', 'console/ must not import cli/.'),
          ],
        },
      ],
    },
  },
  {
    files: ['src/start/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [folder('cli', 'start/ must not import the command line.')] }],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    ignores: ['src/cli/main.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: './main.js', message: 'Commands take what they need from cli/runtime.ts; main.ts imports them.' },
          ],
        },
      ],
    },
  },
];

/**
 * Data tables, exempt from the size rules: the scoring table, the configuration variables, the
 * migrations (each one's up() is the DDL of its step), and the database's table types.
 */
const DATA_TABLES = [
  'src/matching/scoring-table.ts',
  'src/infra/config.ts',
  'src/infra/migrations.ts',
  'src/infra/db-schema.ts',
];

/**
 * The path every screening takes (request, matching, storage, rescreens, batch rows). Here no object
 * literal begins with a spread and goes on (`{ ...a, b }`): Node 20's V8 builds one by cloning `a`
 * and adding to the clone, and allocates it in the old generation, not the young one, so each is
 * garbage that only a full collection frees. Four such literals per POST /screen made about 5 MB/s
 * of it at 1,000 screenings a second: a full collection of the HTTP thread every 20 s or so, whose
 * marking took a core for a tenth of a second and whose pause held every request in flight
 * (docs/latency.md). `{ b, ...a }`, `Object.assign({}, a, { b })` and fields written out are young.
 */
const HOT_PATH = [
  'src/screening/**/*.ts',
  'src/matching/**/*.ts',
  'src/http/pipeline.ts',
  'src/infra/prepared-query.ts',
  'src/infra/sqlite-driver.ts',
  'src/infra/batch-writer.ts',
  'src/infra/stage-timings.ts',
  'src/infra/rate-limiter.ts',
  'src/infra/redis-counters.ts',
  'src/start/matching-pool.ts',
  'src/start/matching-worker.ts',
  'src/decisions/suppression.ts',
  'src/profiles/profile-resolver.ts',
  'src/tenants/auth.ts',
  'src/tenants/quota.ts',
  'src/tenants/key-usage.ts',
  'src/audit/audit-store.ts',
  'src/audit/audit-seal.ts',
  'src/monitoring/rescreen-service.ts',
  'src/monitoring/monitor-screening.ts',
  'src/monitoring/delta-rescreen.ts',
  'src/monitoring/alert-raise.ts',
  'src/monitoring/monitored-searches.ts',
  'src/batches/batch-runner.ts',
];

const hotPathRule = {
  files: HOT_PATH,
  // Route schemas are built once, at start-up.
  ignores: ['src/**/*-schemas.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: 'ObjectExpression > SpreadElement:first-child ~ *',
        message:
          'On the screening path an object literal may not begin with a spread and go on ({ ...a, b }): V8 allocates it in the old generation (eslint.config.js, HOT_PATH). Write { b, ...a }, Object.assign({}, a, { b }) or the fields.',
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { house },
    rules: {
      'house/room-faces': ['error', { rooms: DOMAINS }],
      'house/no-import-loop': 'error',
      'max-lines': ['error', { max: 500, skipBlankLines: false, skipComments: false }],
      'house/function-lines': ['error', { max: 80 }],
      'house/terse-locals': 'error',
    },
  },
  {
    // Data tables: declared data, read whole (STYLE.md "Scoring", "Tooling"), exempt from the size rules.
    files: DATA_TABLES,
    rules: { 'max-lines': 'off', 'house/function-lines': 'off' },
  },
  ...restrictions,
  infraRule,
  ...layerRules,
  hotPathRule,
);
