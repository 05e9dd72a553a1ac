import { defineConfig } from 'vitest/config';

// CI runs a failed test once more (README, "Tests": why, and what a retry still shows).
const ciRetry = process.env.CI ? 1 : 0;

// One embedded MongoDB for the file; each test seeds its own databases (milliseconds each).
export default defineConfig({
  test: {
    retry: ciRetry,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Consumers stop in a fraction of a second instead of ~5 s (packages/platform consumerMaxWait).
    env: { KAFKA_CONSUMER_MAX_WAIT_MS: '300' },
  },
});
