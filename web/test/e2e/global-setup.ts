import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserServer, chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';

const root = fileURLToPath(new URL('../../../', import.meta.url));
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
 */
const stackEnv = {
  NO_COLOR: '1',
  LOGIN_MAX_ATTEMPTS_PER_IP: '10000',
  PHONE_CODE_MAX_SENDS_PER_IP_PER_HOUR: '10000',
  SCHEDULER_MINUTE_MS: '30',
  SCHEDULER_POLL_MS: '50',
} as const;

function match(text: string, pattern: RegExp, what: string): string {
  const found = pattern.exec(text)?.[1];
  if (found === undefined) throw new Error(`devstack output has no ${what}:\n${text.slice(-4000)}`);
  return found;
}

const alive = (proc: ChildProcess) => proc.exitCode === null && proc.signalCode === null;

/**
 * Starts the whole product exactly as `npm start` does (the devstack builds web/dist first when
 * it is stale) in a throwaway data directory, plus one headless Debian Chromium, and stops both
 * afterwards — also when a test or the start-up fails. The devstack runs in its own process group
 * so that nothing it started outlives the run, even if it has to be killed.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  rmSync(artifactsDir, { recursive: true, force: true });
  mkdirSync(artifactsDir, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'web-e2e-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/root',
    DATA_DIR: dataDir,
    ...stackEnv,
  };
  let output = '';
  const proc = spawn(process.execPath, ['--import', 'tsx', 'infra/devstack/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  proc.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  proc.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (proc.pid !== undefined) process.kill(-proc.pid, signal);
    } catch {
      // already gone
    }
  };
  // Last resort when vitest itself exits without running the teardown.
  const onExit = () => killGroup('SIGKILL');
  process.once('exit', onExit);

  let browser: BrowserServer | undefined;
  const stop = async () => {
    await browser?.close().catch(() => undefined);
    if (alive(proc)) {
      proc.kill('SIGINT');
      const timer = setTimeout(() => killGroup('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    // Anything of the group still left (a service that ignored its stop) goes too.
    killGroup('SIGKILL');
    process.off('exit', onExit);
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const deadline = Date.now() + 170_000;
    while (!/ready — /.test(output)) {
      if (Date.now() > deadline || !alive(proc)) throw new Error(`devstack did not start:\n${output.slice(-6000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    browser = await chromium.launchServer({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
    project.provide('stack', {
      bffUrl: match(output, /bff: ready at (http:\/\/\S+)/, 'bff address'),
      authUrl: match(output, /auth: ready at (http:\/\/\S+)/, 'auth address'),
      walletUrl: match(output, /wallet: ready at (http:\/\/\S+)/, 'wallet address'),
      adminPassword: match(output, /admin account: id admin, password (\S+)/, 'admin password'),
      dataDir,
      wsEndpoint: browser.wsEndpoint(),
      artifactsDir,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}
