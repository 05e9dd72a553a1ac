import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20000,
    hookTimeout: 20000,
    // Real short expiries make cases wait; let independent cases overlap.
    maxConcurrency: 16,
  },
});
