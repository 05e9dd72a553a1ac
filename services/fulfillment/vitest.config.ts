import { defineConfig } from 'vitest/config';
import { ciRetries } from '../../infra/test-runner/vitest-retries.ts';

// Integration suites start the embedded servers in-process; allow for a busy machine.
export default defineConfig({
  test: {
    ...ciRetries,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Consumers stop in a fraction of a second instead of ~5 s (packages/platform consumerMaxWait).
    env: { KAFKA_CONSUMER_MAX_WAIT_MS: '300' },
  },
});
