// The house/terse-locals lint rule (scripts/eslint-rules.mjs): a local's name says what it holds.
import { describe, it } from 'node:test';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RuleTester, type Rule } from 'eslint';

const house = (await import(pathToFileURL(path.resolve('scripts/eslint-rules.mjs')).href)) as {
  default: { rules: Record<string, Rule.RuleModule> };
};

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const allowed = 'id, db, ms, to, at, ok, up, by, of, fs, os, ip, pk, _';
const terse = (name: string) => ({ messageId: 'terse', data: { name, allowed } });

new RuleTester({ languageOptions: { ecmaVersion: 'latest', sourceType: 'module' } }).run(
  'house/terse-locals',
  house.default.rules['terse-locals']!,
  {
    valid: [
      'for (let i = 0; i < 3; i++) console.log(i);',
      'for (let i = 0, n = 3; i < n; i++) console.log(i);',
      'const candidate = 1;',
      'const { id } = row; const db = open(); const ok = true; const pk = key(); const _ = 0;',
      'const { n: count } = stats;',
      'const sorted = list.sort((a, b) => a - b);',
      'function score(a, b) { return a + b; }',
    ],
    invalid: [
      { code: 'const c = 1;', errors: [terse('c')] },
      { code: 'let s; var xy = 2;', errors: [terse('s'), terse('xy')] },
      { code: 'const m = /x/.exec(text);', errors: [terse('m')] },
      { code: 'for (const r of rows) use(r);', errors: [terse('r')] },
      { code: 'for (const k in table) use(k);', errors: [terse('k')] },
      { code: 'const { n: x } = stats;', errors: [terse('x')] },
      { code: 'const { n } = stats;', errors: [terse('n')] },
      {
        code: 'const [a, ...bs] = pair; const { q = 1, ...re } = o;',
        errors: [terse('a'), terse('bs'), terse('q'), terse('re')],
      },
      { code: 'for (let i = 0; i < 3; i++) { const j = i; }', errors: [terse('j')] },
    ],
  },
);
