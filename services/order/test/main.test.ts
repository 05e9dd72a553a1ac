import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerHeaders, serviceMain } from '@smm/testkit';

const main = serviceMain(import.meta.url, (infra) => ({ MONGO_URL: infra.mongo.uri('order_main') }));
beforeAll(() => main.setup());
afterAll(() => main.teardown());

describe('main.ts with the devstack environment', () => {
  it('starts, answers /readyz, refuses an unknown service in Korean, and stops cleanly', async () => {
    const order = await main.start();
    expect(await (await fetch(`${order.base}/readyz`)).json()).toEqual({ status: 'ready', checks: { mongo: 'ok', kafka: 'ok' } });
    const res = await fetch(`${order.base}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...callerHeaders({ to: 'order', userId: 'member-1', role: 'member' }) },
      body: JSON.stringify({ serviceId: 1, link: 'x', amount: 10 }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 'SERVICE_REQUIRED', message: '서비스를 선택해 주세요.' });
    expect(await order.stop()).toEqual({ code: 0, nonJsonLines: [] });
  }, 120_000);

  it('refuses a missing or malformed variable with one line and exit code 2', async () => {
    const run = main.spawn({ MONGO_URL: 'http://nope', KAFKA_BROKERS: '' });
    expect(await run.exited).toBe(2);
    expect(run.stderr().trim().split('\n')).toHaveLength(1);
    expect(run.stderr()).toContain('MONGO_URL');
    expect(run.stderr()).toContain('KAFKA_BROKERS');
  });
});
