import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Prints what made a retried test's first try fail (infra/test-runner/failed-attempts.ts).
const failedAttempts = fileURLToPath(new URL('../../infra/test-runner/failed-attempts.ts', import.meta.url));

// CI runs a failed test once more (README, "Tests": why, and what a retry still shows).
const ciRetry = process.env.CI ? 1 : 0;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real clients with real timeouts: a group rebalance or a broker restart takes seconds.
    retry: ciRetry,
    setupFiles: [failedAttempts],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // The machine is shared; two files at a time keeps timings stable.
    maxWorkers: 2,
  },
});
