// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // extensions/*/shopify.d.ts: written by the Shopify CLI (`shopify app build`, `app dev`) in its own style.
  { ignores: ['node_modules/**', 'data/**', 'dist/**', 'drizzle/**', 'test-artifacts/**', 'extensions/*/shopify.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      // Configuration is read and validated in one module; nothing else touches the environment.
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration from src/config/env.ts, not process.env.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.value='env']",
          message: 'Read configuration from src/config/env.ts.',
        },
      ],
    },
  },
  {
    // The admin page's modules, the buyer's page script and the extensions run in the browser (the block in Shopify's extension worker).
    files: ['src/admin/public/**/*.js', 'src/buyer-page/public/**/*.js', 'extensions/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, shopify: 'readonly' } },
  },
  {
    // The sandbox gateway is the oracle the app is tested against: sharing the app's code would make a wrong field
    // name or check digit pass every test. npm packages are fine.
    files: ['sim/sandbox/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+(mappers|src|webhooks)/', message: 'The sandbox imports nothing of the app: write it from the spec.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/config/env.ts'],
    rules: { 'no-restricted-properties': 'off', 'no-restricted-syntax': 'off' },
  },
);
