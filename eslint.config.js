// Lint: the recommended rules, plus the architecture rule of STYLE.md: dependencies point one way
// (http -> domain services -> stores -> infra), and the matching engine is a pure library.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const httpLayer = { group: ['**/http/*', '**/http/**'], message: 'Domain code must not import the HTTP layer.' };

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
    ignores: ['src/http/**', 'src/start/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [httpLayer] }] },
  },
  {
    files: ['src/matching/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            httpLayer,
            {
              group: [
                '**/infra/*',
                '**/screening/*',
                '**/tenants/*',
                '**/monitoring/*',
                '**/webhooks/*',
                '**/start/*',
                '**/cli/*',
              ],
              message: 'The matching engine is a pure library: records in, explained matches out.',
            },
          ],
        },
      ],
    },
  },
);
