import { defineConfig } from 'vitest/config';

/** Unit and integration tests for shared/, main/, preload/ and renderer/ (pure parts). */
export default defineConfig({
  test: {
    include: ['{shared,main,preload,renderer}/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['./vitest.setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', ['json', { outputFile: 'out/test-results/vitest.json' }]],
  },
});
