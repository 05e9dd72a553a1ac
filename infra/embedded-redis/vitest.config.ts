import { defineConfig } from 'vitest/config';
import { ciRetries } from '../../infra/test-runner/vitest-retries.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    ...ciRetries,
    testTimeout: 20000,
    hookTimeout: 20000,
    // Real short expiries make cases wait; let independent cases overlap.
    maxConcurrency: 16,
  },
});
