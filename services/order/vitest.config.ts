import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Prints what made a retried test's first try fail (infra/test-runner/failed-attempts.ts).
const failedAttempts = fileURLToPath(new URL('../../infra/test-runner/failed-attempts.ts', import.meta.url));

// CI runs a failed test once more (README, "Tests": why, and what a retry still shows).
const ciRetry = process.env.CI ? 1 : 0;

// Integration suites start the embedded servers in-process; allow for a busy machine.
export default defineConfig({
  test: {
    retry: ciRetry,
    setupFiles: [failedAttempts],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Consumers stop in a fraction of a second instead of ~5 s (packages/platform consumerMaxWait).
    env: { KAFKA_CONSUMER_MAX_WAIT_MS: '300' },
  },
});
