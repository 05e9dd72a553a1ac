import { defineConfig } from 'vitest/config';

// These suites start real processes and servers; on a busy two-core machine a start can take
// several seconds, so the default 5 s per test is too tight.
export default defineConfig({ test: { testTimeout: 30_000, hookTimeout: 60_000 } });
