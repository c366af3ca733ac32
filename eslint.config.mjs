// ESLint flat config. Type-aware typescript-eslint (no-floating-promises) plus import rules
// that back up the per-folder tsconfigs: a folder is a runtime (docs/architecture.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'child_process',
  'crypto',
  'http',
  'https',
  'net',
  'url',
  'stream',
  'util',
  'zlib',
  'events',
  'worker_threads',
];

/** Build a no-restricted-imports rule from forbidden module patterns. */
function forbid(patterns, message) {
  return {
    'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
  };
}

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'bench/.work/**',
      'test-results/**',
      'playwright-report/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/no-redundant-type-constituents': 'off',
    },
  },
  {
    // Plain JavaScript (build and bench scripts) is linted without type information.
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
        performance: 'readonly',
        module: 'writable',
        require: 'readonly',
      },
    },
  },
  {
    // Playwright fixtures must destructure their dependencies, even when there are none.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts', 'shared/testing/**'],
    rules: forbid(
      [
        ...nodeBuiltins,
        'electron',
        'react',
        'react-dom',
        '**/main/**',
        '**/renderer/**',
        '**/preload/**',
      ],
      'shared/ is pure TypeScript: no Node, no DOM, no Electron.',
    ),
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    ignores: ['renderer/**/*.test.ts', 'renderer/vite.config.ts'],
    rules: forbid(
      [...nodeBuiltins, 'electron', '**/main/**', '**/preload/**'],
      'renderer/ talks to main only through platform/api.',
    ),
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/electron/**'],
    rules: forbid(
      ['electron', '**/renderer/**', '**/preload/**'],
      'Only main/electron/ may import electron; main/ never imports renderer/ or preload/.',
    ),
  },
  {
    files: ['main/electron/**/*.ts'],
    rules: forbid(
      ['**/renderer/**', '**/preload/**'],
      'main/ never imports renderer/ or preload/.',
    ),
  },
  {
    files: ['preload/**/*.ts'],
    rules: forbid(
      [...nodeBuiltins, '**/main/**', '**/renderer/**'],
      'preload/ imports only shared/ipc and electron.',
    ),
  },
);
