// Lint: the recommended rules, plus the architecture of STYLE.md and README ("Layout"): dependencies
// point one way (cli -> start -> http -> console -> domain services -> stores -> infra), domains import each other
// in one order, the matching engine is a pure library, and no module imports itself back through
// others (import-x/no-cycle, which sees loops between files; the folder rules see loops between domains).
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * The domains in dependency order: each may import only the ones before it (and infra/), so no loop
 * between domains can form. audit (the hash-chained audit log) comes first: every domain appends to it.
 * Among them: lists imports neither ownership nor monitoring (ownership
 * reads the lists; the derived source is handed in by start/services.ts), webhooks does not import
 * monitoring (monitoring writes webhook deliveries). A new domain goes where its imports put it.
 */
const DOMAINS = [
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
          // The matching engine is a pure library even of infra: records in, explained matches out.
          ...(domain === 'matching' ? [folder('infra', 'The matching engine is a pure library: no infra/.')] : []),
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
 * Above the domains: cli -> start -> http. import-x/no-cycle does not follow `import type`, so the
 * loop the command files once made with cli/main.ts through a type is ruled out by name.
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
    plugins: { 'import-x': importX },
    settings: {
      // The TypeScript settings of import-x (its imported modules are parsed as TypeScript), with the
      // resolver that maps the `.js` of ESM imports to the `.ts` sources.
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  ...restrictions,
  infraRule,
  ...layerRules,
);
