import { defineConfig } from 'vitest/config';

// CI runs a failed test once more (README, "Tests": why, and what a retry still shows).
const ciRetry = process.env.CI ? 1 : 0;

// These suites start real processes and servers; on a busy two-core machine a start can take
// several seconds, so the default 5 s per test is too tight.
export default defineConfig({ test: { retry: ciRetry, testTimeout: 30_000, hookTimeout: 60_000 } });
