import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'dist-bench/', 'sdk/dist/', 'cli/dist/', 'generated/', 'data/', 'sdk/src/api.d.ts', 'coverage/', 'examples/browser-app/dist/', 'web/dist/', 'test-artifacts/', '.venv-conformance/', '.conformance/', '.venv-python/'] },
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
  ...frontDoorRules(),
  // The browser example: plain browser modules, and its small Node scripts.
  { files: ['examples/browser-app/app.js'], languageOptions: { globals: globals.browser } },
  // The web app runs in the browser only.
  { files: ['web/src/**/*.{ts,tsx}'], languageOptions: { globals: globals.browser } },
  { files: ['examples/**/*.mjs'], languageOptions: { globals: globals.node } },
);

/**
 * A component is reached through its front door (style guide): a file in src/<component>/ imports
 * another component's `*.component.ts` only. src/platform/, src/http/, src/config.ts, src/deps.ts and
 * generated/ are shared by all; src/test-support/ is for tests only.
 */
function frontDoorRules() {
  const components = ['account', 'auth', 'connectors', 'limits', 'mcp', 'oauth', 'tasks', 'webhooks'];
  const testSupport = { regex: '(^|/)test-support/', message: 'src/test-support/ is for tests only.' };
  return components.flatMap((component) => {
    const others = components.filter((other) => other !== component).join('|');
    const allowed = `(${others})/[\\w.-]+\\.component\\.js$`;
    const frontDoor = {
      regex: `^(\\.\\./)+(?!${allowed})(${others})/`,
      message: `Another component is reached through its *.component.ts only (from src/${component}/).`,
    };
    return [
      {
        files: [`src/${component}/**/*.ts`],
        ignores: ['**/*.test.ts'],
        rules: { 'no-restricted-imports': ['error', { patterns: [frontDoor, testSupport] }] },
      },
      { files: [`src/${component}/**/*.test.ts`], rules: { 'no-restricted-imports': ['error', { patterns: [frontDoor] }] } },
    ];
  });
}
