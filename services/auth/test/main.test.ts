import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerHeaders, serviceMain } from '@smm/testkit';
import { privateKeyPem } from './support/harness.ts';

const main = serviceMain(import.meta.url, (infra) => ({
  MONGO_URL: infra.mongo.uri('auth_main'),
  REDIS_URL: infra.redis.url,
  SERVICE_NAME: 'auth',
  JWT_PRIVATE_KEY: privateKeyPem,
  ADMIN_ID: 'admin',
  ADMIN_PASSWORD: 'devstack-admin-pw',
  SMS_DEV_OUTBOX: 'true',
}));
beforeAll(() => main.setup());
afterAll(() => main.teardown());

describe('main (the devstack starts it this way)', () => {
  it('starts with the devstack environment, logs one listening line, is ready, and stops cleanly on SIGTERM', async () => {
    const auth = await main.start({}, 30_000);
    expect(await (await fetch(`${auth.base}/readyz`)).json()).toEqual({ status: 'ready', checks: { mongo: 'ok', kafka: 'ok', redis: 'ok' } });
    const body = JSON.stringify({ id: 'admin', password: 'devstack-admin-pw' });
    const login = await fetch(`${auth.base}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json', ...callerHeaders({ to: 'auth' }) }, body });
    expect(login.status).toBe(200);
    // Without a credential for auth, nothing answers but the probes: not even a login.
    expect((await fetch(`${auth.base}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(401);
    expect(auth.process.records().filter((r) => r.msg === 'listening')).toHaveLength(1);
    expect(await auth.stop()).toEqual({ code: 0, nonJsonLines: [] });
  }, 60_000);

  it('exits 2 with one line naming a missing or malformed variable', async () => {
    // Three processes at once: each spends most of its time loading TypeScript.
    const [missing, malformed, weak] = [{ JWT_PRIVATE_KEY: undefined }, { JWT_PRIVATE_KEY: 'not a key' }, { SERVICE_AUTH_SECRET: 'short' }].map((changes) => main.spawn(changes));
    expect(await Promise.all([missing!.exited, malformed!.exited, weak!.exited])).toEqual([2, 2, 2]);
    expect(missing!.stderr().trim()).toBe('Invalid configuration: JWT_PRIVATE_KEY: is required');
    expect(malformed!.stderr().trim().split('\n')).toHaveLength(1);
    expect(malformed!.stderr()).toContain('JWT_PRIVATE_KEY');
    expect(weak!.stderr()).toContain('SERVICE_AUTH_SECRET: must be at least 32 characters');
  }, 60_000);
});
