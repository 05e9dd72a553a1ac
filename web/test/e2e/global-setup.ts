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
    await raiseTopUpLimits(stack.find(/bff: ready at (http:\/\/\S+)/, 'bff address'), stack.find(/admin account: id admin, password (\S+)/, 'admin password'));
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}

/**
 * The browser tests open several top-up requests per member (the console's lists, the deposit queue):
 * issue 39's limits (one open request per member, five an hour; bff/test/e2e/admin-duties.test.ts
 * tests them) are raised for this suite the way an admin would, and a probe member waits until the
 * wallet has the new values.
 */
async function raiseTopUpLimits(bffUrl: string, adminPassword: string): Promise<void> {
  const call = async (method: string, path: string, body: unknown, token?: string) => {
    const res = await fetch(`${bffUrl}/api${path}`, { method, headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
  };
  const admin = String((await call('POST', '/auth/login', { id: 'admin', password: adminPassword })).body.accessToken);
  const set = await call('PUT', '/admin/settings', { values: { TOP_UP_OPEN_LIMIT: '50', TOP_UP_HOURLY_LIMIT: '100' } }, admin);
  if (set.status !== 200) throw new Error(`raising the top-up limits answered ${set.status}`);
  const id = `limitprobe${Date.now().toString(36)}`;
  await call('POST', '/auth/register', { id, password: 'probe-pass-1', email: `${id}@example.com`, registerWhere: '기타' });
  const token = String((await call('POST', '/auth/login', { id, password: 'probe-pass-1' })).body.accessToken);
  const asked: unknown[] = [];
  const deadline = Date.now() + 30_000;
  for (let point = 5_000; Date.now() < deadline; point += 5_000) {
    const res = await call('POST', '/service/point', { name: '한도확인', point, feeType: 'none', feeValue: null }, token);
    if (res.status === 201) asked.push(res.body.id);
    if (asked.length === 2) {
      // Leave no pending request behind for the screens that count them.
      for (const topUpId of asked) await call('POST', `/admin/top-ups/${String(topUpId)}/reject`, { reason: '한도 확인용' }, admin);
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the wallet did not take the raised top-up limits');
}
