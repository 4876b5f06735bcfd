// @ts-check
// ESLint for the whole project (`npm run lint`, part of `npm test`). typescript-eslint's recommended
// rules (not the type-checked set: `npm run typecheck` already type-checks, and a second type-aware
// pass would double lint time on the CI's two cores), React's hook rules for the admin. Formatting is
// Prettier's job (.prettierrc.json); no rule here is about layout.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    // generated, built or written at run time: never edited by hand (see .gitignore)
    ignores: [
      '**/node_modules/',
      '**/dist/',
      'server/generated/',
      'admin/src/generated/',
      'test-results/',
      'playwright-report/',
      'data/',
      '.tmp/',
      'tests/bench/results/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          // `const { secret: _s, ...rest } = row` is how the code drops a key from a copy
          ignoreRestSiblings: true,
          // a parameter a signature needs but this implementation does not use is named `_x`
          argsIgnorePattern: '^_',
        },
      ],
    },
  },
  {
    files: ['admin/**/*.{ts,tsx}', 'tests/admin/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The React Compiler's advice, not a bug: the admin resets a dialog's fields when it opens and
      // keeps a draft in step with the applied filter by setting state in an effect. Rewriting each
      // with `key` remounts or render-time state would change behaviour; the project does not use
      // the React Compiler, which is what the rule is for.
      'react-hooks/set-state-in-effect': 'off',
    },
  },
  {
    // Playwright reads a test function's first parameter to decide which fixtures to set up: a
    // hook that needs only `testInfo` must still take `{}` first.
    files: ['tests/e2e/**/*.ts'],
    rules: { 'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }] },
  },
  {
    // the API docs page's script runs in the browser as it is (a module script, no bundler)
    files: ['server/openapi/docs/*.js'],
    languageOptions: {
      globals: { document: 'readonly', Node: 'readonly', localStorage: 'readonly', fetch: 'readonly' },
    },
  },
);
