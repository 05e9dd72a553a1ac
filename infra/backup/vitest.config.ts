import { defineConfig } from 'vitest/config';
import { ciRetries } from '../../infra/test-runner/vitest-retries.ts';

// The suite runs a whole devstack twice and a few hundred orders through it: minutes, not seconds.
export default defineConfig({
  test: {
    ...ciRetries,
    testTimeout: 600_000,
    hookTimeout: 300_000,
    // Consumers stop in a fraction of a second instead of ~5 s (packages/platform consumerMaxWait).
    env: { KAFKA_CONSUMER_MAX_WAIT_MS: '300' },
  },
});
