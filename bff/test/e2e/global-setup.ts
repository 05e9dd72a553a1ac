import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { testServiceEnv, testServiceSecret } from '@smm/testkit';
import { naverClient, startFakeProviders } from './support/fake-providers.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export type StackInfo = {
  bffUrl: string;
  authUrl: string;
  walletUrl: string;
  /** Absent while the order / scheduler services are not built yet. */
  orderUrl: string | null;
  schedulerUrl: string | null;
  dataDir: string;
  adminPassword: string;
  kafkaBrokers: string;
  mongoUrl: string;
  /** The devstack's embedded Redis (the mass-order test forgets an idempotency record as a crashed BFF would). */
  redisUrl: string | null;
  providersUrl: string;
};

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

/** The money saga's timings for the end-to-end run (exported for the tests that depend on them). */
export const moneyEnv = {
  SCHEDULER_MINUTE_MS: '30',
  SCHEDULER_POLL_MS: '50',
  TOPUP_EXPIRY_SECONDS: '20',
  API_RATE_LIMIT_PER_MINUTE: '120',
} as const;

const optional = (text: string, pattern: RegExp): string | null => pattern.exec(text)?.[1] ?? null;

function match(text: string, pattern: RegExp, what: string): string {
  const found = pattern.exec(text)?.[1];
  if (found === undefined) throw new Error(`devstack output has no ${what}:\n${text.slice(-4000)}`);
  return found;
}

/**
 * Starts the whole devstack once for the end-to-end files (`npm start` from the repository root)
 * in a throwaway data directory, with fake Naver/Kakao endpoints, and stops it afterwards.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const providers = await startFakeProviders();
  const dataDir = mkdtempSync(join(tmpdir(), 'bff-e2e-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/root',
    NO_COLOR: '1',
    DATA_DIR: dataDir,
    // Known to the tests, so the few that call a service directly can sign like the BFF.
    SERVICE_AUTH_SECRET: testServiceSecret,
    // auth: the fake providers, and per-address limits high enough for one test address
    NAVER_AUTH_URL: providers.url,
    NAVER_API_URL: providers.url,
    KAKAO_API_URL: providers.url,
    NAVER_CLIENT_SECRET: naverClient.secret,
    LOGIN_MAX_ATTEMPTS_PER_IP: '10000',
    // auth: a refresh token reused more than a second after it was spent ends its session
    REFRESH_TOKEN_REUSE_GRACE_SECONDS: '1',
    PHONE_CODE_MAX_SENDS_PER_IP_PER_HOUR: '10000',
    // fulfillment: the providers of the forwarding tests listen on 127.0.0.1
    FULFILLMENT_ALLOW_PRIVATE_PROVIDERS: 'true',
    // money: one auto-order "minute" lasts 30 ms, the scheduler polls every 50 ms, top-ups expire
    // after 20 s (long enough to approve the others first), a small per-key API limit to test
    ...moneyEnv,
    // consumers (and so the devstack's stop) stop in a fraction of a second
    ...testServiceEnv,
  };
  let output = '';
  const proc: ChildProcess = spawn(process.execPath, ['infra/devstack/bin/start.mjs'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  proc.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));

  const stop = async () => {
    if (proc.exitCode === null) {
      proc.kill('SIGINT');
      // The devstack stops each app (up to 10 s each) and then the embedded servers; under load this
      // takes well over 20 s, and a SIGKILL of the devstack would orphan its embedded servers.
      const timer = setTimeout(() => proc.kill('SIGKILL'), 120_000);
      await exited;
      clearTimeout(timer);
    }
    await providers.close();
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const deadline = Date.now() + 400_000;
    while (!/ready — /.test(output)) {
      if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`devstack did not start:\n${output.slice(-6000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    project.provide('stack', {
      bffUrl: match(output, /bff: ready at (http:\/\/\S+)/, 'bff address'),
      authUrl: match(output, /auth: ready at (http:\/\/\S+)/, 'auth address'),
      walletUrl: match(output, /wallet: ready at (http:\/\/\S+)/, 'wallet address'),
      orderUrl: optional(output, /order: ready at (http:\/\/\S+)/),
      schedulerUrl: optional(output, /scheduler: ready at (http:\/\/\S+)/),
      dataDir,
      adminPassword: match(output, /admin account: id admin, password (\S+)/, 'admin password'),
      kafkaBrokers: match(output, /Kafka: embedded server ready at (\S+)/, 'Kafka address'),
      mongoUrl: match(output, /MongoDB: embedded server ready at (\S+)/, 'MongoDB address'),
      redisUrl: optional(output, /Redis: embedded server ready at (\S+)/),
      providersUrl: providers.url,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}
