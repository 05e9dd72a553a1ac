import { defineConfig } from 'vitest/config';
import { ciRetries } from '../../infra/test-runner/vitest-retries.ts';

// Integration suites start the embedded servers in-process; allow for a busy machine.
export default defineConfig({ test: { ...ciRetries, testTimeout: 30_000, hookTimeout: 60_000 } });
