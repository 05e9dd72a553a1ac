import { defineConfig } from 'vitest/config';
import { ciRetries } from '../infra/test-runner/vitest-retries.ts';

// The browser end-to-end suite: the whole product started once (test/e2e/global-setup.ts), driven
// by headless Debian Chromium through playwright-core. Files end in `.e2e.ts`, so the unit run
// (`vitest run`, test/**/*.test.ts) never picks them up.
export default defineConfig({
  test: {
    name: 'web-e2e',
    environment: 'node',
    include: ['test/e2e/**/*.e2e.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Screens answer within a few seconds (the scheduler's runs, the wallet's credit take longest).
    expect: { poll: { timeout: 15_000, interval: 100 } },
    // One file at a time: the files share one devstack and its site settings, and the machine has 2 cores.
    fileParallelism: false,
    // One worker and module graph for every file (playwright-core and the support modules imported
    // once): a fresh worker per file cost 1.5–5.5 s between files, 133 s over the 24 files on a
    // loaded 2-core machine. The files keep no module state of their own between them.
    isolate: false,
    // describe.concurrent files (the screenshots) open at most this many pages at once.
    maxConcurrency: 3,
    // In CI a browser test that fails is run once more before the run fails (Playwright's own CI
    // default is two retries): a page that answers late on a loaded 2-core runner should not sink a
    // whole submission, while a real defect fails both tries. Retried tests are listed in the log.
    ...ciRetries,
  },
});
