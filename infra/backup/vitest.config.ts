import { defineConfig } from 'vitest/config';

// CI runs a failed test once more (README, "Tests": why, and what a retry still shows).
const ciRetry = process.env.CI ? 1 : 0;

// The suite runs a whole devstack twice and a few hundred orders through it: minutes, not seconds.
export default defineConfig({ test: { retry: ciRetry, testTimeout: 600_000, hookTimeout: 300_000 } });
