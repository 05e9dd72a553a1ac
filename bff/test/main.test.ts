import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedRedis, startEmbeddedRedis } from '@smm/embedded-redis';
import { spawnMain, testServiceSecret } from '@smm/testkit';
import { FakeService } from './support/fake-service.ts';
import { testKeys } from './support/keys.ts';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const cwd = fileURLToPath(new URL('..', import.meta.url));

let redis: EmbeddedRedis;
let fake: FakeService;
beforeAll(async () => {
  redis = await startEmbeddedRedis({ port: 0, logger: pino({ level: 'silent' }) });
  fake = await new FakeService('any').start();
});
afterAll(async () => {
  await redis.close();
  await fake.close();
});

const baseEnv = () => ({
  PATH: process.env.PATH ?? '',
  HOST: '127.0.0.1',
  PORT: '0',
  REDIS_URL: redis.url,
  // as an env file carries it: newlines written as \n
  JWT_PUBLIC_KEY: testKeys().publicPem.replace(/\n/g, '\\n'),
  AUTH_SERVICE_URL: fake.url,
  CATALOG_SERVICE_URL: fake.url,
  WALLET_SERVICE_URL: fake.url,
  SERVICE_AUTH_SECRET: testServiceSecret,
});

describe('src/main.ts', () => {
  it('refuses a missing or malformed variable with one line naming it, exit 2', () => {
    const { JWT_PUBLIC_KEY: _omit, ...withoutKey } = baseEnv();
    const missing = spawnSync(process.execPath, ['--import', 'tsx', main], { cwd, env: withoutKey, encoding: 'utf8' });
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toBe('Invalid configuration: JWT_PUBLIC_KEY: is required');
    const bad = spawnSync(process.execPath, ['--import', 'tsx', main], { cwd, env: { ...baseEnv(), AUTH_SERVICE_URL: 'auth:4101' }, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe('Invalid configuration: AUTH_SERVICE_URL: must be a http or https URL');
  });

  it('logs one "listening" line, is ready, and exits 0 on SIGTERM', async () => {
    const proc = spawnMain(cwd, baseEnv());
    try {
      const line = (await proc.waitFor('listening', 20_000)) as { port: number; service: string };
      expect(line.service).toBe('bff');
      const ready = await fetch(`http://127.0.0.1:${line.port}/readyz`);
      expect(ready.status).toBe(200);
    } finally {
      proc.child.kill('SIGTERM');
    }
    expect(await proc.exited).toBe(0);
  });
});
