import { defineConfig } from 'vitest/config';
import { ciRetries } from '../../infra/test-runner/vitest-retries.ts';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Integration tests run real Kafka and MongoDB in-process; rebalances take seconds.
    ...ciRetries,
    // Consumers stop in a fraction of a second instead of ~5 s (packages/platform consumerMaxWait).
    env: { KAFKA_CONSUMER_MAX_WAIT_MS: '300' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The machine is shared with other engineers' suites.
    maxWorkers: 2,
  },
});
