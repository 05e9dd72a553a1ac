import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // The end-to-end files share one devstack (test/e2e/global-setup.ts); one file at a time keeps
    // the shared 2-core machine responsive.
    fileParallelism: false,
  },
});
