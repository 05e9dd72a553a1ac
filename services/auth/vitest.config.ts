import { defineConfig } from 'vitest/config';
import { ciRetries } from '../../infra/test-runner/vitest-retries.ts';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    ...ciRetries,
    // Consumers stop in a fraction of a second instead of ~5 s (packages/platform consumerMaxWait).
    env: { KAFKA_CONSUMER_MAX_WAIT_MS: '300' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each integration file starts its own embedded Kafka, MongoDB and Redis; running the files one
    // after another keeps the shared 2-core machine responsive and the topics of one file private.
    fileParallelism: false,
  },
});
