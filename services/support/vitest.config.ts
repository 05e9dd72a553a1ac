import { defineConfig } from 'vitest/config';

// CI runs a failed test once more (README, "Tests": why, and what a retry still shows).
const ciRetry = process.env.CI ? 1 : 0;

// Integration suites start the embedded servers in-process; allow for a busy machine.
export default defineConfig({ test: { retry: ciRetry, testTimeout: 30_000, hookTimeout: 60_000 } });
