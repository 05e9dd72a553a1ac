import { defineConfig } from 'vitest/config';

// CI runs a failed test once more (README, "Tests": why, and what a retry still shows).
const ciRetry = process.env.CI ? 1 : 0;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    retry: ciRetry,
    testTimeout: 20000,
    hookTimeout: 20000,
    // Real short expiries make cases wait; let independent cases overlap.
    maxConcurrency: 16,
  },
});
