import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerHeaders, serviceMain } from '@smm/testkit';
import { keySecret } from './support.ts';

const main = serviceMain(import.meta.url, (infra) => ({
  MONGO_URL: infra.mongo.uri('fulfillment_main'),
  // Nothing answers there: start-up does not call order or catalog.
  ORDER_SERVICE_URL: 'http://127.0.0.1:1',
  CATALOG_SERVICE_URL: 'http://127.0.0.1:1',
  FULFILLMENT_KEY_SECRET: keySecret,
}));
beforeAll(() => main.setup());
afterAll(() => main.teardown());

describe('main.ts with the devstack environment', () => {
  it('starts, answers /readyz and an operator, refuses a caller without a credential, and stops cleanly on SIGTERM', async () => {
    const fulfillment = await main.start({ FULFILLMENT_PROVIDER_CONCURRENCY: '2' });
    expect(await fulfillment.process.waitFor('fulfillment started')).toMatchObject({ concurrency: 2 });
    // The paid-order consumer joins in the background (a restart after a crash answers HTTP at once); /readyz says when it has.
    await fulfillment.process.waitFor('consumer joined its group');
    expect(await (await fetch(`${fulfillment.base}/readyz`)).json()).toEqual({ status: 'ready', checks: { mongo: 'ok', kafka: 'ok', consumer: 'ok' } });
    const providers = await fetch(`${fulfillment.base}/admin/providers`, { headers: callerHeaders({ to: 'fulfillment', userId: 'admin-1', role: 'admin' }) });
    expect(providers.status).toBe(200);
    expect((await fetch(`${fulfillment.base}/admin/providers`)).status).toBe(401);
    expect(await fulfillment.stop()).toEqual({ code: 0, nonJsonLines: [] });
  }, 90_000);

  it('refuses a missing or malformed variable with one line naming it and exit code 2', async () => {
    const run = main.spawn({ FULFILLMENT_KEY_SECRET: 'short', ORDER_SERVICE_URL: undefined });
    expect(await run.exited).toBe(2);
    expect(run.stderr().trim().split('\n')).toHaveLength(1);
    expect(run.stderr()).toContain('FULFILLMENT_KEY_SECRET');
    expect(run.stderr()).toContain('ORDER_SERVICE_URL');
  });
});
