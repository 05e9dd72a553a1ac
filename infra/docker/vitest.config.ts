import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Prints what made a retried test's first try fail (infra/test-runner/failed-attempts.ts).
const failedAttempts = fileURLToPath(new URL('../../infra/test-runner/failed-attempts.ts', import.meta.url));

// CI runs a failed test once more (README, "Tests": why, and what a retry still shows).
const ciRetry = process.env.CI ? 1 : 0;

// These suites bundle packages and start the compiled processes against embedded servers; on a
// busy two-core machine that takes seconds, so the default 5 s per test is too tight.
export default defineConfig({ test: { retry: ciRetry, setupFiles: [failedAttempts], testTimeout: 120_000, hookTimeout: 120_000 } });
