import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killMains, spawnMain } from '@smm/testkit';
import { startInfra } from './support.ts';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
let infra: Awaited<ReturnType<typeof startInfra>>;

beforeAll(async () => {
  infra = await startInfra();
});

afterAll(async () => {
  killMains();
  await infra?.stop();
});

const env = () => ({ HOST: '127.0.0.1', PORT: '0', KAFKA_BROKERS: infra.kafka.brokers, MONGO_URL: infra.mongo.uri('wallet_main'), LOG_LEVEL: 'info' });

describe('main.ts with the devstack environment', () => {
  it('starts, answers /readyz, uses TOPUP_EXPIRY_SECONDS, and stops cleanly on SIGTERM', async () => {
    const main = spawnMain(packageDir, { ...env(), TOPUP_EXPIRY_SECONDS: '120' });
    const listening = await main.waitFor('listening');
    const base = `http://127.0.0.1:${String(listening.port)}`;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const res = await fetch(`${base}/top-ups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-id': 'main-test' },
      body: JSON.stringify({ name: '홍길동', point: 5000 }),
    });
    const topUp = (await res.json()) as { createdAt: string; expiresAt: string };
    expect(res.status).toBe(201);
    expect(Date.parse(topUp.expiresAt) - Date.parse(topUp.createdAt)).toBe(120_000);
    main.child.kill('SIGTERM');
    expect(await main.exited).toBe(0);
    for (const line of main.stdout().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  }, 120_000);

  it('refuses a malformed variable with one line and exit code 2', async () => {
    const run = spawnMain(packageDir, { ...env(), TOPUP_EXPIRY_SECONDS: '0' });
    expect(await run.exited).toBe(2);
    expect(run.stderr().trim().split('\n')).toHaveLength(1);
    expect(run.stderr()).toContain('TOPUP_EXPIRY_SECONDS');
  });
});
