import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Topics, UserRegistered } from '@smm/contracts';
import { createKafka } from '@smm/platform';
import { checkLedger } from '../src/ledger-check.ts';
import { type Wallet, accountOpened, balanceOf, client, eventually, fund, logger, startWallet, withNewId, walletSuite } from './support.ts';

const suite = walletSuite({ collector: 'wallet-referral-collector' });
let nextOrderId = 5000;

/** A member as auth announces them: with `referrerId` when they signed up with someone's code. */
async function newMember(loginId: string, referrerId: string | null = null, won = 0): Promise<string> {
  const userId = `member-${randomUUID().slice(0, 8)}`;
  const event = UserRegistered.create(
    userId,
    { userId, loginId, email: null, role: 'member', provider: 'local', registerWhere: null, referredBy: referrerId ? 'CODE1234' : null, referrerId },
    { correlationId: randomUUID() },
  );
  await suite.publisher.publish(Topics.auth, [event]);
  await accountOpened(suite.wallet.base, userId);
  if (won > 0) await fund(suite.wallet.base, userId, won);
  return userId;
}

type Referrals = {
  ratePercent: number;
  memberCount: number;
  members: Array<{ loginId: string; registeredAt: string }>;
  earningsDeci: number;
  earnings: number;
  history: { items: Array<{ kind: string; member: string; amountDeci: number; sourceDeci: number; ratePercent: number; shortfallDeci: number }>; hasNext: boolean };
};
const referralsOf = async (userId: string) => (await client(suite.wallet.base, userId).get<Referrals>(`/referrals/${userId}`)).body;
const referralEntries = async (userId: string) =>
  (await suite.wallet.store.ledger.model.find({ userId, source: { $in: ['referral', 'referral-reversal'] } }).sort({ seq: 1 }).lean()).map((e) => [e._id, e.source, e.deltaDeci]);
const quiet = () => new Promise((r) => setTimeout(r, 1000));

async function pay(userId: string, chargeDeci: number, kind: 'order' | 'auto' = 'order'): Promise<number> {
  const orderId = nextOrderId++;
  await suite.publisher.publish(Topics.order, [suite.publisher.orderPlaced(userId, orderId, chargeDeci, kind)]);
  await eventually(() => Promise.resolve(suite.received.of('PointDebited', (d) => d.orderId === orderId).length), (n) => n === 1);
  return orderId;
}

async function setRate(value: string) {
  await suite.publisher.publish(Topics.catalog, [suite.publisher.setting('REFERRAL_RATE_PERCENT', value)]);
  await eventually(() => suite.wallet.store.settings.get('REFERRAL_RATE_PERCENT'), (v) => v === value);
}

describe('referrals that pay (PointDebited of a referred member → referral credit)', () => {
  it('credits the referrer 5 % of a payment, rounded down, exactly once under redelivery, copies and replay of the wallet event', async () => {
    const referrer = await newMember('alice01');
    const referred = await newMember('bobby22', referrer, 10_000);
    const orderId = await pay(referred, 20_019); // 5 % = 1000.95 deci-won → 1000
    await eventually(() => balanceOf(suite.wallet.base, referrer), (b) => b === 1000);
    await eventually(() => Promise.resolve(suite.received.of('PointCredited', (d) => d.userId === referrer && d.source === 'referral').length), (n) => n === 1);

    // The same order again (same id, then a copy), and the wallet's own PointDebited again under a new id.
    const placed = suite.publisher.orderPlaced(referred, orderId, 20_019);
    await suite.publisher.publish(Topics.order, [placed, withNewId(placed)]);
    const debited = suite.received.of('PointDebited', (d) => d.orderId === orderId)[0]!;
    await suite.publisher.publish(Topics.wallet, [debited, withNewId(debited)]);
    await quiet();
    expect(await balanceOf(suite.wallet.base, referrer)).toBe(1000);
    expect(suite.received.of('PointCredited', (d) => d.userId === referrer && d.source === 'referral')).toHaveLength(1);
    expect(await referralEntries(referrer)).toEqual([[`referral-order-${orderId}`, 'referral', 1000]]);

    const view = await referralsOf(referrer);
    expect(view).toMatchObject({ ratePercent: 5, memberCount: 1, members: [{ loginId: 'bo***' }], earningsDeci: 1000, earnings: 100 });
    expect(view.history.items).toEqual([{ createdAt: expect.any(String), kind: 'credit', member: 'bo***', amountDeci: 1000, point: 100, sourceDeci: 20_019, ratePercent: 5, shortfallDeci: 0 }]);
  });

  it('pays nobody for members without a referrer, and a member cannot read another member\'s referrals', async () => {
    const loner = await newMember('loner', null, 10_000);
    const before = (await suite.wallet.store.referrals.earnings.countDocuments());
    await pay(loner, 10_000);
    await quiet();
    expect(await suite.wallet.store.referrals.earnings.countDocuments()).toBe(before);
    expect((await client(suite.wallet.base, 'someone-else').get(`/referrals/${loner}`)).status).toBe(403);
    expect(await referralsOf(loner)).toMatchObject({ memberCount: 0, members: [], earningsDeci: 0, history: { items: [] } });
  });

  it('pays exactly the referrers of the referred payers among payments that arrive together', async () => {
    const [ann, ben] = [await newMember('annref'), await newMember('benref')];
    const payers = [
      await newMember('carol1', ann, 10_000),
      await newMember('dave22', null, 10_000),
      await newMember('erin33', ben, 10_000),
      await newMember('frank4', null, 10_000),
      await newMember('grace5', ann, 10_000),
    ];
    const charges = [20_000, 30_000, 40_000, 50_000, 60_000];
    const orderIds = payers.map(() => nextOrderId++);
    await suite.publisher.publish(Topics.order, payers.map((userId, i) => suite.publisher.orderPlaced(userId, orderIds[i]!, charges[i]!)));
    await eventually(() => Promise.resolve(suite.received.of('PointDebited', (d) => orderIds.includes(d.orderId as number)).length), (n) => n === 5);
    // 5 % of carol's 20,000 and grace's 60,000 deci-won to ann, of erin's 40,000 to ben.
    await eventually(() => balanceOf(suite.wallet.base, ann), (b) => b === 4000);
    await eventually(() => balanceOf(suite.wallet.base, ben), (b) => b === 2000);
    await quiet();
    const credited = suite.received.of('PointCredited', (d) => d.source === 'referral' && (d.userId === ann || d.userId === ben));
    expect(credited.map((e) => { const d = e.data as { userId: string; amountDeci: number }; return [d.userId, d.amountDeci]; }).sort()).toEqual([[ann, 1000], [ann, 3000], [ben, 2000]].sort());
    expect((await referralsOf(ann)).memberCount).toBe(2);
  });

  it('reverses the share of a refund (partial, then the rest) once per refund id', async () => {
    const referrer = await newMember('carol');
    const referred = await newMember('dave', referrer, 10_000);
    const orderId = await pay(referred, 40_000, 'auto'); // credit 2000
    await eventually(() => balanceOf(suite.wallet.base, referrer), (b) => b === 2000);
    await fund(suite.wallet.base, referrer, 5000); // referrer holds 2000 + 50000

    const refund = suite.publisher.refund(referred, orderId, `auto-${orderId}-canceled`, 10_000); // share 500
    await suite.publisher.publish(Topics.order, [refund, withNewId(refund)]);
    await eventually(() => balanceOf(suite.wallet.base, referrer), (b) => b === 51_500);
    const credited = suite.received.of('PointCredited', (d) => d.referenceId === `auto-${orderId}-canceled`)[0]!;
    await suite.publisher.publish(Topics.wallet, [withNewId(credited)]);
    await quiet();
    expect(await balanceOf(suite.wallet.base, referrer)).toBe(51_500);
    expect(await referralEntries(referrer)).toEqual([
      [`referral-auto-${orderId}`, 'referral', 2000],
      [`referral-reversal-auto-${orderId}-canceled`, 'referral-reversal', -500],
    ]);
    expect(await referralsOf(referrer)).toMatchObject({ earningsDeci: 1500, history: { items: [{ kind: 'reversal', amountDeci: 500, sourceDeci: 10_000 }, { kind: 'credit' }] } });
  });

  it('never takes the referrer below zero: what was already spent is recorded as a shortfall', async () => {
    const referrer = await newMember('erin');
    const referred = await newMember('frank', referrer, 10_000);
    const orderId = await pay(referred, 100_000); // credit 5000
    await eventually(() => balanceOf(suite.wallet.base, referrer), (b) => b === 5000);
    await fund(suite.wallet.base, referrer, 5000);
    await pay(referrer, 53_000); // referrer spends all but 2000
    expect(await balanceOf(suite.wallet.base, referrer)).toBe(2000);

    await suite.publisher.publish(Topics.order, [suite.publisher.refund(referred, orderId, `order-${orderId}-canceled`, 100_000)]);
    await eventually(() => balanceOf(suite.wallet.base, referrer), (b) => b === 0);
    const history = (await referralsOf(referrer)).history.items;
    expect(history[0]).toMatchObject({ kind: 'reversal', amountDeci: 2000, shortfallDeci: 3000 });
    expect(await referralEntries(referrer)).toEqual([
      [`referral-order-${orderId}`, 'referral', 5000],
      [`referral-reversal-order-${orderId}-canceled`, 'referral-reversal', -2000],
    ]);
  });

  it('follows the operator\'s rate: new payments at the new rate, earlier credits and their reversals at theirs', async () => {
    const referrer = await newMember('grace');
    const referred = await newMember('heidi', referrer, 10_000);
    const first = await pay(referred, 10_000); // 5 % → 500
    await eventually(() => balanceOf(suite.wallet.base, referrer), (b) => b === 500);
    await setRate('12');
    await pay(referred, 10_000); // 12 % → 1200
    await eventually(() => balanceOf(suite.wallet.base, referrer), (b) => b === 1700);
    expect((await referralsOf(referrer)).ratePercent).toBe(12);

    await suite.publisher.publish(Topics.order, [suite.publisher.refund(referred, first, `order-${first}-canceled`, 10_000)]);
    await eventually(() => balanceOf(suite.wallet.base, referrer), (b) => b === 1200); // 500 back, not 1200

    await setRate('0');
    await pay(referred, 10_000);
    await quiet();
    expect(await balanceOf(suite.wallet.base, referrer)).toBe(1200);
    await setRate('5');
  });

  it('keeps the books exact', async () => {
    await suite.wallet.flush();
    const report = await checkLedger(suite.wallet.store.connection);
    expect(report.violations).toEqual([]);
    expect(await suite.wallet.store.ledger.model.countDocuments({ source: 'referral' })).toBeGreaterThanOrEqual(5);
  });

  it('changes nothing when every topic is replayed from the start by new consumer groups', async () => {
    await suite.wallet.flush();
    const snapshot = async (w: Wallet) => ({
      accounts: (await w.store.accounts.model.find().sort({ _id: 1 }).lean()).map((a) => [a._id, a.balanceDeci, a.seq ?? 0]),
      earnings: await w.store.referrals.earnings.countDocuments(),
      ledger: await w.store.ledger.model.countDocuments(),
    });
    const before = await snapshot(suite.wallet);
    const events = suite.received.events.length;
    const database = suite.wallet.database;
    await suite.wallet.close();
    const id = randomUUID().slice(0, 6);
    suite.wallet = await startWallet(suite.infra, { database, consumerGroups: { main: `wallet-replay-${id}`, payments: `wallet-payments-replay-${id}` } });
    // Replay is done when the new main group has caught up with the wallet topic (the last one it reads).
    const admin = createKafka([suite.infra.kafka.brokers], 'wallet-referral-admin', logger).admin();
    await admin.connect();
    const end = (await admin.fetchTopicOffsets(Topics.wallet)).reduce((sum, o) => sum + Number(o.high), 0);
    await eventually(
      async () => (await admin.fetchOffsets({ groupId: `wallet-replay-${id}`, topics: [Topics.wallet] }))[0]!.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0),
      (done) => done >= end,
      30_000,
    );
    await admin.disconnect();
    await quiet();
    expect(await snapshot(suite.wallet)).toEqual(before);
    expect(suite.received.events.length).toBe(events);
  });
});
