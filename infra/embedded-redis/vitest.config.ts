import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Prints what made a retried test's first try fail (infra/test-runner/failed-attempts.ts).
const failedAttempts = fileURLToPath(new URL('../../infra/test-runner/failed-attempts.ts', import.meta.url));

// CI runs a failed test once more (README, "Tests": why, and what a retry still shows).
const ciRetry = process.env.CI ? 1 : 0;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    retry: ciRetry,
    setupFiles: [failedAttempts],
    testTimeout: 20000,
    hookTimeout: 20000,
    // Real short expiries make cases wait; let independent cases overlap.
    maxConcurrency: 16,
  },
});
