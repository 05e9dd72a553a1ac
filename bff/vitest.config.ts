import { defineConfig } from 'vitest/config';
import { ciRetries } from '../infra/test-runner/vitest-retries.ts';

// Consumers stop in a fraction of a second instead of ~5 s (packages/platform consumerMaxWait); the
// e2e global setup passes the same to its devstack.
const env = { KAFKA_CONSUMER_MAX_WAIT_MS: '300' };

export default defineConfig({
  test: {
    // One file at a time: the shared 2-core machine stays responsive, and the end-to-end files
    // change site settings of the one devstack they share.
    fileParallelism: false,
    projects: [
      {
        test: {
          name: 'bff',
          include: ['src/**/*.test.ts', 'test/*.test.ts'],
          ...ciRetries,
          env,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // wallet and order started here (not by the devstack) so they can be SIGKILLed and restarted
          name: 'recovery',
          include: ['test/recovery/**/*.test.ts'],
          ...ciRetries,
          env,
          testTimeout: 300_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          ...ciRetries,
          env,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
          // The files share one devstack and import the same clients: one module graph for all of
          // them instead of a fresh worker per file (about 1.5 s per file on a loaded 2-core runner).
          isolate: false,
        },
      },
    ],
  },
});
