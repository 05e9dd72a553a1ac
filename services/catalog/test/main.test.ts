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

const startMain = (env: Record<string, string>) => spawnMain(packageDir, env);

const env = () => ({
  HOST: '127.0.0.1',
  PORT: '0',
  KAFKA_BROKERS: infra.kafka.brokers,
  MONGO_URL: infra.mongo.uri('catalog_main'),
  REDIS_URL: 'redis://127.0.0.1:1',
  LOG_LEVEL: 'info',
  SERVICE_NAME: 'catalog',
});

describe('main.ts with the devstack environment', () => {
  it('seeds on first start, answers /readyz, stops cleanly, and does not seed twice', async () => {
    const first = startMain(env());
    const listening = await first.waitFor('listening');
    const base = `http://127.0.0.1:${String(listening.port)}`;
    expect((await first.waitFor('seed finished')).created).toBeGreaterThan(50);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const platforms = (await (await fetch(`${base}/platforms`)).json()) as Array<{ text: string }>;
    expect(platforms[0]?.text).toBe('인스타그램');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    for (const line of first.stdout().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();

    const second = startMain(env());
    await second.waitFor('listening');
    expect(await second.waitFor('seed finished')).toMatchObject({ created: 0 });
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  }, 120_000);

  it('refuses a missing or malformed variable with one line and exit code 2', async () => {
    const run = startMain({ ...env(), MONGO_URL: 'http://nope', KAFKA_BROKERS: '' });
    expect(await run.exited).toBe(2);
    expect(run.stderr().trim().split('\n')).toHaveLength(1);
    expect(run.stderr()).toContain('MONGO_URL');
    expect(run.stderr()).toContain('KAFKA_BROKERS');
  });
});
