import { defineConfig } from 'vitest/config';
import { ciRetries } from '../../infra/test-runner/vitest-retries.ts';

// These suites start real processes and servers; on a busy two-core machine a start can take
// several seconds, so the default 5 s per test is too tight.
export default defineConfig({
  test: {
    ...ciRetries,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Consumers stop in a fraction of a second instead of ~5 s (packages/platform consumerMaxWait).
    env: { KAFKA_CONSUMER_MAX_WAIT_MS: '300' },
  },
});
