import { defineConfig } from 'vitest/config';
import { ciRetries } from '../../infra/test-runner/vitest-retries.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real clients with real timeouts: a group rebalance or a broker restart takes seconds.
    ...ciRetries,
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // The machine is shared; two files at a time keeps timings stable.
    maxWorkers: 2,
  },
});
