import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'sdk/dist/', 'cli/dist/', 'generated/', 'data/', 'sdk/src/api.d.ts', 'coverage/', 'examples/browser-app/dist/', 'test-artifacts/', '.venv-conformance/', '.conformance/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  // The browser example: plain browser modules, and its small Node scripts.
  { files: ['examples/browser-app/app.js'], languageOptions: { globals: globals.browser } },
  { files: ['examples/**/*.mjs'], languageOptions: { globals: globals.node } },
);
