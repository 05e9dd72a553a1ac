import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Integration tests run real Kafka and MongoDB in-process; rebalances take seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The machine is shared with other engineers' suites.
    maxWorkers: 2,
  },
});
