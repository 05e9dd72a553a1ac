import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Prints what made a retried test's first try fail (infra/test-runner/failed-attempts.ts).
const failedAttempts = fileURLToPath(new URL('../../infra/test-runner/failed-attempts.ts', import.meta.url));

// CI runs a failed test once more (README, "Tests": why, and what a retry still shows).
const ciRetry = process.env.CI ? 1 : 0;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real clients against a real server on a shared 2-core machine: contention tests retry with
    // backoff and child processes take seconds to start when the machine is busy.
    retry: ciRetry,
    setupFiles: [failedAttempts],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    maxWorkers: 2,
  },
});
