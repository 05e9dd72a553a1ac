import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TopUpExpired, TopUpRejected } from '@smm/contracts';
import { type Scheduler, collectSchedulerEvents, eventually, expiriesOf, kafkaOf, sleep, startInfra, startScheduler, upstream } from './support.ts';

let infra: Awaited<ReturnType<typeof startInfra>>;
let scheduler: Scheduler;
let wallet: Awaited<ReturnType<typeof upstream>>;
let out: Awaited<ReturnType<typeof collectSchedulerEvents>>;

beforeAll(async () => {
  infra = await startInfra();
  scheduler = await startScheduler(infra);
  wallet = await upstream(infra);
  out = await collectSchedulerEvents(kafkaOf(infra));
});

afterAll(async () => {
  await out?.stop();
  await wallet?.stop();
  await scheduler?.close();
  await infra?.stop();
});

const inMs = (ms: number) => new Date(Date.now() + ms);

describe('top-up expiry on scheduler.events.v1', () => {
  it('fires TopUpExpiryDue once, at expiresAt, for a request still open — even when TopUpRequested arrives twice', async () => {
    const expiresAt = inMs(1500);
    const requested = wallet.topUpRequested(11, expiresAt);
    await wallet.publishWallet(requested, requested);
    await eventually(() => expiriesOf(out.received, 11).length, (n) => n >= 1, 20_000);
    await wallet.publishWallet(requested); // replayed after it fired
    await sleep(1500);
    const fired = out.received.filter((r) => r.event.type === 'TopUpExpiryDue' && r.event.aggregateId === 'topup-11');
    expect(fired).toHaveLength(1);
    expect(fired[0]!.event).toMatchObject({ correlationId: 'topup-corr-11', causationId: requested.eventId, data: { topUpId: 11, userId: 'member-1' } });
    expect(fired[0]!.at).toBeGreaterThanOrEqual(expiresAt.getTime());
  });

  it('fires at once for a request whose expiry already passed (the scheduler read it late)', async () => {
    await wallet.publishWallet(wallet.topUpRequested(12, inMs(-60_000)));
    await eventually(() => expiriesOf(out.received, 12).length, (n) => n >= 1, 20_000);
  });

  it('does not fire for a request approved or rejected before it expired', async () => {
    await wallet.publishWallet(wallet.topUpRequested(13, inMs(2500)), wallet.topUpRequested(14, inMs(2500)));
    await eventually(() => scheduler.expiries.find(14), (e) => e !== null, 20_000);
    await wallet.publishWallet(wallet.topUpApproved(13), TopUpRejected.create('topup-14', { topUpId: 14, userId: 'member-1' }, { correlationId: 'reject-14' }));
    await eventually(() => scheduler.expiries.find(14), (e) => e?.expiry.state === 'rejected', 20_000);
    expect((await scheduler.expiries.find(13))?.expiry.state).toBe('approved');
    // A request after them proves the poller went past their expiry time.
    await wallet.publishWallet(wallet.topUpRequested(15, inMs(3000)));
    await eventually(() => expiriesOf(out.received, 15).length, (n) => n >= 1, 20_000);
    expect(expiriesOf(out.received, 13)).toEqual([]);
    expect(expiriesOf(out.received, 14)).toEqual([]);
  });

  it('forgets an expiry the wallet already expired, and never revives a closed one', async () => {
    await wallet.publishWallet(wallet.topUpRequested(16, inMs(60_000)));
    await eventually(() => scheduler.expiries.find(16), (e) => e !== null, 20_000);
    await wallet.publishWallet(TopUpExpired.create('topup-16', { topUpId: 16, userId: 'member-1' }, { correlationId: 'exp-16' }));
    await eventually(() => scheduler.expiries.find(16), (e) => e?.expiry.state === 'expired', 20_000);
    // An outcome that arrives before its request (replay from another point) leaves a tombstone.
    await wallet.publishWallet(wallet.topUpApproved(17), wallet.topUpRequested(17, inMs(500)));
    await eventually(() => scheduler.expiries.find(17), (e) => e !== null, 20_000);
    await sleep(1500);
    expect((await scheduler.expiries.find(17))?.expiry.state).toBe('approved');
    expect(expiriesOf(out.received, 17)).toEqual([]);
  });
});
