import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerHeaders, serviceMain } from '@smm/testkit';

const main = serviceMain(import.meta.url, (infra) => ({ MONGO_URL: infra.mongo.uri('support_main'), SUPPORT_MESSAGES_PER_MINUTE: '7' }));
beforeAll(() => main.setup());
afterAll(() => main.teardown());

describe('main.ts with the devstack environment', () => {
  it('starts with the configured limits, answers /readyz, and stops cleanly on SIGTERM', async () => {
    const support = await main.start();
    expect(await support.process.waitFor('support started')).toMatchObject({ limits: { openPerMember: 3, messagesPerMinute: 7 } });
    expect((await fetch(`${support.base}/readyz`)).status).toBe(200);
    expect((await fetch(`${support.base}/tickets/unread`, { headers: callerHeaders({ to: 'support', userId: 'member-1', role: 'member' }) })).status).toBe(200);
    expect(await support.stop()).toEqual({ code: 0, nonJsonLines: [] });
  }, 60_000);

  it('refuses a malformed variable with one line naming it and exit code 2', async () => {
    const run = main.spawn({ SUPPORT_MESSAGES_PER_MINUTE: '0', KAFKA_BROKERS: '' });
    expect(await run.exited).toBe(2);
    expect(run.stderr().trim().split('\n')).toHaveLength(1);
    expect(run.stderr()).toContain('SUPPORT_MESSAGES_PER_MINUTE');
    expect(run.stderr()).toContain('KAFKA_BROKERS');
  });

  it('exits 1 with one fatal line when MongoDB cannot be reached', async () => {
    const run = main.spawn({ MONGO_URL: 'mongodb://127.0.0.1:1/support' });
    expect(await run.exited).toBe(1);
    expect(run.records().filter((r) => r.level === 'fatal').map((r) => r.msg)).toEqual(['start-up failed']);
  }, 30_000);
});
