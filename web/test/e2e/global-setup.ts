import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type BrowserServer, chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { testServiceSecret } from '@smm/testkit';
import { type Devstack, startDevstack } from './support/devstack.ts';

/** Screenshots of every screen (gitignored): look at them after a run. */
export const artifactsDir = fileURLToPath(new URL('./artifacts/', import.meta.url));

export const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export type StackInfo = {
  bffUrl: string;
  authUrl: string;
  walletUrl: string;
  adminPassword: string;
  dataDir: string;
  /** playwright-core's browser server: test files connect to it instead of starting Chromium each. */
  wsEndpoint: string;
  artifactsDir: string;
};

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

/**
 * The devstack with fast money timings: one auto-order "minute" lasts 30 ms and the scheduler
 * polls every 50 ms, so a two-run auto order with a 60-minute interval is done in a few seconds.
 * Per-address limits are high enough for one test browser's many logins and codes.
 */
const stackEnv = {
  // Known to the tests, so the few direct calls to a service (SMS outbox, wallet account) can sign like the BFF.
  SERVICE_AUTH_SECRET: testServiceSecret,
  LOGIN_MAX_ATTEMPTS_PER_IP: '10000',
  PHONE_CODE_MAX_SENDS_PER_IP_PER_HOUR: '10000',
  SCHEDULER_MINUTE_MS: '30',
  SCHEDULER_POLL_MS: '50',
  // The second panel the provider tests forward to runs on 127.0.0.1.
  FULFILLMENT_ALLOW_PRIVATE_PROVIDERS: 'true',
} as const;

/**
 * Starts the whole product once (as `npm start` does, in a throwaway data directory) and one
 * headless Debian Chromium (playwright's own fresh temporary profile), and stops both afterwards —
 * also when the start-up or a test fails.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  rmSync(artifactsDir, { recursive: true, force: true });
  mkdirSync(artifactsDir, { recursive: true });
  const stack: Devstack = await startDevstack(stackEnv, { prefix: 'web-e2e-' });
  let browser: BrowserServer | undefined;
  const stop = async () => {
    await browser?.close().catch(() => undefined);
    await stack.stop();
  };
  try {
    browser = await chromium.launchServer({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
    project.provide('stack', {
      bffUrl: stack.find(/bff: ready at (http:\/\/\S+)/, 'bff address'),
      authUrl: stack.find(/auth: ready at (http:\/\/\S+)/, 'auth address'),
      walletUrl: stack.find(/wallet: ready at (http:\/\/\S+)/, 'wallet address'),
      adminPassword: stack.find(/admin account: id admin, password (\S+)/, 'admin password'),
      dataDir: stack.dataDir,
      wsEndpoint: browser.wsEndpoint(),
      artifactsDir,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}
