// One flat config for the whole monorepo; packages run `eslint .` from their own folder.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.data/**', '**/coverage/**', '**/.build/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // CommonJS configuration files at the root (dependency-cruiser's), linted since npm test runs ESLint once over the tree.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', __dirname: 'readonly' } },
  },
  {
    // Domain code must stay framework-free (house rule 1 in docs/STYLE.md).
    files: ['**/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['express', 'mongoose', 'kafkajs', 'ioredis', 'mongodb'] }],
    },
  },
);
