import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerHeaders, serviceMain } from '@smm/testkit';

const main = serviceMain(import.meta.url, (infra) => ({ MONGO_URL: infra.mongo.uri('wallet_main') }));
beforeAll(() => main.setup());
afterAll(() => main.teardown());

describe('main.ts with the devstack environment', () => {
  it('starts, answers /readyz, uses TOPUP_EXPIRY_SECONDS, and stops cleanly on SIGTERM', async () => {
    const wallet = await main.start({ TOPUP_EXPIRY_SECONDS: '120' });
    expect((await fetch(`${wallet.base}/readyz`)).status).toBe(200);
    const res = await fetch(`${wallet.base}/top-ups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...callerHeaders({ to: 'wallet', userId: 'main-test', role: 'member' }) },
      body: JSON.stringify({ name: '홍길동', point: 5000 }),
    });
    const topUp = (await res.json()) as { createdAt: string; expiresAt: string };
    expect(res.status).toBe(201);
    expect(Date.parse(topUp.expiresAt) - Date.parse(topUp.createdAt)).toBe(120_000);
    expect(await wallet.stop()).toEqual({ code: 0, nonJsonLines: [] });
  }, 120_000);

  it('refuses a malformed variable with one line and exit code 2', async () => {
    const run = main.spawn({ TOPUP_EXPIRY_SECONDS: '0' });
    expect(await run.exited).toBe(2);
    expect(run.stderr().trim().split('\n')).toHaveLength(1);
    expect(run.stderr()).toContain('TOPUP_EXPIRY_SECONDS');
  });
});
