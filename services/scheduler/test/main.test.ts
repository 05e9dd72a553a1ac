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
  MONGO_URL: infra.mongo.uri('scheduler_main'),
  LOG_LEVEL: 'info',
  SCHEDULER_MINUTE_MS: '50',
  SCHEDULER_POLL_MS: '200',
});

describe('main.ts with the devstack environment', () => {
  it('starts with the configured minute, answers /readyz, and stops cleanly on SIGTERM', async () => {
    const run = spawnMain(packageDir, env());
    expect(await run.waitFor('scheduler started')).toMatchObject({ minuteMs: 50, pollMs: 200 });
    const listening = await run.waitFor('listening');
    const base = `http://127.0.0.1:${String(listening.port)}`;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect((await fetch(`${base}/schedules`, { headers: { 'x-user-role': 'admin' } })).status).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    for (const line of run.stdout().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  }, 60_000);

  it('refuses a malformed variable with one line naming it and exit code 2', async () => {
    const run = spawnMain(packageDir, { ...env(), SCHEDULER_MINUTE_MS: '0', KAFKA_BROKERS: '' });
    expect(await run.exited).toBe(2);
    expect(run.stderr().trim().split('\n')).toHaveLength(1);
    expect(run.stderr()).toContain('SCHEDULER_MINUTE_MS');
    expect(run.stderr()).toContain('KAFKA_BROKERS');
  });

  it('exits 1 with one fatal line when MongoDB cannot be reached', async () => {
    const run = spawnMain(packageDir, { ...env(), MONGO_URL: 'mongodb://127.0.0.1:1/scheduler' });
    expect(await run.exited).toBe(1);
    expect(run.records().filter((r) => r.level === 'fatal').map((r) => r.msg)).toEqual(['start-up failed']);
  }, 30_000);
});
