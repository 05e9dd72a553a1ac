import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killMains, spawnMain } from '@smm/testkit';
import { type Infra, privateKeyPem, startInfra } from './support/harness.ts';

const serviceDir = fileURLToPath(new URL('..', import.meta.url));
let infra: Infra;

beforeAll(async () => {
  infra = await startInfra();
});

afterAll(async () => {
  killMains();
  await infra?.stop();
});

const run = (env: Record<string, string>) => spawnMain(serviceDir, env);

const baseEnv = () => ({
  PORT: '0',
  KAFKA_BROKERS: infra.kafka.brokers,
  MONGO_URL: infra.mongo.uri('auth_main'),
  REDIS_URL: infra.redis.url,
  SERVICE_NAME: 'auth',
  LOG_LEVEL: 'info',
  JWT_PRIVATE_KEY: privateKeyPem,
  ADMIN_ID: 'admin',
  ADMIN_PASSWORD: 'devstack-admin-pw',
  SMS_DEV_OUTBOX: 'true',
});

describe('main (the devstack starts it this way)', () => {
  it('starts with the devstack environment, logs one listening line, is ready, and stops cleanly on SIGTERM', async () => {
    const proc = run(baseEnv());
    const listening = (await proc.waitFor('listening', 30_000)) as { port: number };
    const base = `http://127.0.0.1:${listening.port}`;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const login = await fetch(`${base}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'admin', password: 'devstack-admin-pw' }) });
    expect(login.status).toBe(200);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    for (const line of proc.stdout().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  }, 60_000);

  it('exits 2 with one line naming a missing or malformed variable', async () => {
    const { JWT_PRIVATE_KEY: _omit, ...withoutKey } = baseEnv();
    const missing = run(withoutKey);
    expect(await missing.exited).toBe(2);
    expect(missing.stderr().trim()).toBe('Invalid configuration: JWT_PRIVATE_KEY: is required');

    const malformed = run({ ...baseEnv(), JWT_PRIVATE_KEY: 'not a key' });
    expect(await malformed.exited).toBe(2);
    expect(malformed.stderr().trim().split('\n')).toHaveLength(1);
    expect(malformed.stderr()).toContain('JWT_PRIVATE_KEY');
  }, 30_000);
});
