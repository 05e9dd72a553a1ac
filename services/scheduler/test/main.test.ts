import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerHeaders, serviceMain } from '@smm/testkit';

const main = serviceMain(import.meta.url, (infra) => ({ MONGO_URL: infra.mongo.uri('scheduler_main'), SCHEDULER_MINUTE_MS: '50', SCHEDULER_POLL_MS: '200' }));
beforeAll(() => main.setup());
afterAll(() => main.teardown());

describe('main.ts with the devstack environment', () => {
  it('starts with the configured minute, answers /readyz, and stops cleanly on SIGTERM', async () => {
    const scheduler = await main.start();
    expect(await scheduler.process.waitFor('scheduler started')).toMatchObject({ minuteMs: 50, pollMs: 200 });
    expect((await fetch(`${scheduler.base}/readyz`)).status).toBe(200);
    expect((await fetch(`${scheduler.base}/schedules`, { headers: callerHeaders({ to: 'scheduler', userId: 'admin-1', role: 'admin' }) })).status).toBe(200);
    expect(await scheduler.stop()).toEqual({ code: 0, nonJsonLines: [] });
  }, 60_000);

  it('refuses a malformed variable with one line naming it and exit code 2', async () => {
    const run = main.spawn({ SCHEDULER_MINUTE_MS: '0', KAFKA_BROKERS: '' });
    expect(await run.exited).toBe(2);
    expect(run.stderr().trim().split('\n')).toHaveLength(1);
    expect(run.stderr()).toContain('SCHEDULER_MINUTE_MS');
    expect(run.stderr()).toContain('KAFKA_BROKERS');
  });

  it('exits 1 with one fatal line when MongoDB cannot be reached', async () => {
    const run = main.spawn({ MONGO_URL: 'mongodb://127.0.0.1:1/scheduler' });
    expect(await run.exited).toBe(1);
    expect(run.records().filter((r) => r.level === 'fatal').map((r) => r.msg)).toEqual(['start-up failed']);
  }, 30_000);
});
