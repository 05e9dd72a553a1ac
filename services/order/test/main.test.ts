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

const env = () => ({
  HOST: '127.0.0.1',
  PORT: '0',
  KAFKA_BROKERS: infra.kafka.brokers,
  MONGO_URL: infra.mongo.uri('order_main'),
  LOG_LEVEL: 'info',
});

describe('main.ts with the devstack environment', () => {
  it('starts, answers /readyz, refuses an unknown service in Korean, and stops cleanly', async () => {
    const main = spawnMain(packageDir, env());
    const listening = await main.waitFor('listening');
    const base = `http://127.0.0.1:${String(listening.port)}`;
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ready', checks: { mongo: 'ok', kafka: 'ok' } });
    const res = await fetch(`${base}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-id': 'member-1' },
      body: JSON.stringify({ serviceId: 1, link: 'x', amount: 10 }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 'SERVICE_REQUIRED', message: '서비스를 선택해 주세요.' });
    main.child.kill('SIGTERM');
    expect(await main.exited).toBe(0);
    for (const line of main.stdout().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  }, 120_000);

  it('refuses a missing or malformed variable with one line and exit code 2', async () => {
    const run = spawnMain(packageDir, { ...env(), MONGO_URL: 'http://nope', KAFKA_BROKERS: '' });
    expect(await run.exited).toBe(2);
    expect(run.stderr().trim().split('\n')).toHaveLength(1);
    expect(run.stderr()).toContain('MONGO_URL');
    expect(run.stderr()).toContain('KAFKA_BROKERS');
  });
});
