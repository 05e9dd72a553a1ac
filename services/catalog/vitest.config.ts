import { defineConfig } from 'vitest/config';

// CI runs a failed test once more (README, "Tests": why, and what a retry still shows).
const ciRetry = process.env.CI ? 1 : 0;

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Integration tests run real Kafka and MongoDB in-process; rebalances take seconds.
    retry: ciRetry,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The machine is shared with other engineers' suites.
    maxWorkers: 2,
  },
});
