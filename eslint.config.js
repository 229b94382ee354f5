// One lint configuration for panel, server, tests and tools. Formatting is Prettier's: eslint-config-prettier
// comes last and turns off every rule that would argue with it. `npm run lint` checks, `npm run format` fixes.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'data/', 'node_modules/', 'coverage/', '.bench/', 'test-results/', '.cache/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, globals: { ...globals.node } },
    rules: {
      // `_name` marks a parameter or binding kept on purpose (a handler's unused reply, a drained loop variable).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // The `any` budget reached 0: use the real type, or `unknown` plus a zod parse.
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The server is linted with its types: a promise nobody awaits, or one handed to a callback that ignores it,
    // is a lost error or an unordered write. `void p` says "on purpose"; `.catch` handles it.
    files: ['server/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // The simulators (sim/) are started by tests and by the launcher, never loaded by the server.
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)sim/', message: 'The server never loads sim/.' }] },
      ],
    },
  },
  {
    // Kysely's documented migration signature: a migration must not depend on today's schema type.
    files: ['server/db/migrations/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests and benchmarks cast partial fixtures and raw JSON answers on purpose; the assertions check them.
    files: ['tests/**/*.{ts,tsx}', 'bench/**/*.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.vitest } },
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
);
