// Spread into every package's vitest `test` options: in CI a failed test runs once more (README,
// "Tests": why, and what a retry still shows), and each failed attempt is printed as it happens
// (failed-attempts.ts), so a test that passed on its retry still shows what failed the first time.
import { fileURLToPath } from 'node:url';

export const ciRetries = {
  retry: process.env.CI ? 1 : 0,
  setupFiles: [fileURLToPath(new URL('./failed-attempts.ts', import.meta.url))],
};
