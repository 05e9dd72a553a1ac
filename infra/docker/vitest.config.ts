import { defineConfig } from 'vitest/config';
import { ciRetries } from '../../infra/test-runner/vitest-retries.ts';

// These suites bundle packages and start the compiled processes against embedded servers; on a
// busy two-core machine that takes seconds, so the default 5 s per test is too tight.
export default defineConfig({ test: { ...ciRetries, testTimeout: 120_000, hookTimeout: 120_000 } });
