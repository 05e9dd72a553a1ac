import { defineConfig } from 'vitest/config';

// The suite runs a whole devstack twice and a few hundred orders through it: minutes, not seconds.
export default defineConfig({ test: { testTimeout: 600_000, hookTimeout: 300_000 } });
