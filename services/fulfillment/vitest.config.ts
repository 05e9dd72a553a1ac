import { defineConfig } from 'vitest/config';

// Integration suites start the embedded servers in-process; allow for a busy machine.
export default defineConfig({ test: { testTimeout: 30_000, hookTimeout: 60_000 } });
