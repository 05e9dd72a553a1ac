import { defineConfig } from 'vitest/config';
import { ciRetries } from '../../infra/test-runner/vitest-retries.ts';

// One embedded MongoDB for the file; each test seeds its own databases (milliseconds each).
export default defineConfig({
  test: {
    ...ciRetries,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Consumers stop in a fraction of a second instead of ~5 s (packages/platform consumerMaxWait).
    env: { KAFKA_CONSUMER_MAX_WAIT_MS: '300' },
  },
});
