import { defineConfig } from 'vitest/config';
import { ciRetries } from '../../infra/test-runner/vitest-retries.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real clients against a real server on a shared 2-core machine: contention tests retry with
    // backoff and child processes take seconds to start when the machine is busy.
    ...ciRetries,
    testTimeout: 60_000,
    hookTimeout: 30_000,
    maxWorkers: 2,
  },
});
