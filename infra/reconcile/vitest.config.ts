import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Prints what made a retried test's first try fail (infra/test-runner/failed-attempts.ts).
const failedAttempts = fileURLToPath(new URL('../../infra/test-runner/failed-attempts.ts', import.meta.url));

// CI runs a failed test once more (README, "Tests": why, and what a retry still shows).
const ciRetry = process.env.CI ? 1 : 0;

// One embedded MongoDB for the file; each test seeds its own databases (milliseconds each).
export default defineConfig({
  test: {
    retry: ciRetry,
    setupFiles: [failedAttempts],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Consumers stop in a fraction of a second instead of ~5 s (packages/platform consumerMaxWait).
    env: { KAFKA_CONSUMER_MAX_WAIT_MS: '300' },
  },
});
