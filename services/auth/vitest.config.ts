import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each integration file starts its own embedded Kafka, MongoDB and Redis; running the files one
    // after another keeps the shared 2-core machine responsive and the topics of one file private.
    fileParallelism: false,
  },
});
