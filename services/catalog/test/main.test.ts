import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerHeaders, serviceMain } from '@smm/testkit';

const main = serviceMain(import.meta.url, (infra) => ({ MONGO_URL: infra.mongo.uri('catalog_main'), REDIS_URL: 'redis://127.0.0.1:1', SERVICE_NAME: 'catalog' }));
beforeAll(() => main.setup());
afterAll(() => main.teardown());

describe('main.ts with the devstack environment', () => {
  it('seeds on first start, answers /readyz, stops cleanly, and does not seed twice', async () => {
    const first = await main.start();
    expect((await first.process.waitFor('seed finished')).created).toBeGreaterThan(50);
    expect((await fetch(`${first.base}/readyz`)).status).toBe(200);
    const platforms = (await (await fetch(`${first.base}/platforms`, { headers: callerHeaders({ to: 'catalog' }) })).json()) as Array<{ text: string }>;
    expect(platforms[0]?.text).toBe('인스타그램');
    expect(await first.stop()).toEqual({ code: 0, nonJsonLines: [] });

    const second = await main.start();
    expect(await second.process.waitFor('seed finished')).toMatchObject({ created: 0 });
    expect((await second.stop('SIGINT')).code).toBe(0);
  }, 120_000);

  it('refuses a missing or malformed variable with one line and exit code 2', async () => {
    const run = main.spawn({ MONGO_URL: 'http://nope', KAFKA_BROKERS: '' });
    expect(await run.exited).toBe(2);
    expect(run.stderr().trim().split('\n')).toHaveLength(1);
    expect(run.stderr()).toContain('MONGO_URL');
    expect(run.stderr()).toContain('KAFKA_BROKERS');
  });
});
