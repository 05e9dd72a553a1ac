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

/** The order service announces a status change of an order (2 completed, 3 partial, 5 canceled). */
async function deliver(userId: string, orderId: number, to = 2, remains = 0) {
  await suite.publisher.publish(Topics.order, [suite.publisher.statusChanged(userId, orderId, to, remains)]);
}
const referralCredits = (userId: string) => suite.received.of('PointCredited', (d) => d.userId === userId && d.source === 'referral');
const admin = () => client(suite.wallet.base, 'operator-1', 'admin');

async function setRate(value: string) {
  await suite.publisher.publish(Topics.catalog, [suite.publisher.setting('REFERRAL_RATE_PERCENT', value)]);
  await eventually(() => suite.wallet.store.settings.get('REFERRAL_RATE_PERCENT'), (v) => v === value);
}

describe('referrals that pay on delivery (a referred member\'s order completed → referral credit)', () => {
  it('credits nothing at payment, then 5 % of a completed order, rounded down, once under redelivery and copies', async () => {
    const referrer = await newMember('alice01');
    const referred = await newMember('bobby22', referrer, 10_000);
    const orderId = await pay(referred, 20_019); // 5 % = 1000.95 deci-won → 1000
    // The wallet's own PointDebited again under a new id: still nothing before delivery.
    const debited = suite.received.of('PointDebited', (d) => d.orderId === orderId)[0]!;
    await suite.publisher.publish(Topics.wallet, [withNewId(debited)]);
    await quiet();
    expect(await balanceOf(suite.wallet.base, referrer)).toBe(0);

    const completed = suite.publisher.statusChanged(referred, orderId, 2);
    await suite.publisher.publish(Topics.order, [completed, completed, withNewId(completed)]);
    await eventually(() => balanceOf(suite.wallet.base, referrer), (b) => b === 1000);
    await suite.publisher.publish(Topics.order, [withNewId(completed)]);
    await quiet();
    expect(await balanceOf(suite.wallet.base, referrer)).toBe(1000);
    expect(referralCredits(referrer)).toHaveLength(1);
    expect(await referralEntries(referrer)).toEqual([[`referral-order-${orderId}`, 'referral', 1000]]);
    expect(await suite.wallet.store.referrals.earnings.findById(`referral-order-${orderId}`).lean()).toMatchObject({ paymentReference: `order-${orderId}`, debitReference: `order-${orderId}`, sourceDeci: 20_019 });

    const view = await referralsOf(referrer);
    expect(view).toMatchObject({ ratePercent: 5, memberCount: 1, members: [{ loginId: 'bo***' }], earningsDeci: 1000, earnings: 100 });
    expect(view.history.items).toEqual([{ createdAt: expect.any(String), kind: 'credit', member: 'bo***', amountDeci: 1000, point: 100, sourceDeci: 20_019, ratePercent: 5, shortfallDeci: 0 }]);
  });

  it('issue 39 cycle: a 100-run auto order cancelled after one run pays the referrer only that run\'s share, and nothing before it is delivered', async () => {
    const a = await newMember('cyclea');
    const b = await newMember('cycleb', a, 100_000); // 1,000,000 deci-won
    const autoId = await pay(b, 1_000_000, 'auto');
    const child = nextOrderId++;
    await suite.publisher.publish(Topics.order, [suite.publisher.runPlaced(b, autoId, 1, 100, child)]);
    await suite.publisher.publish(Topics.order, [suite.publisher.refund(b, autoId, `auto-${autoId}-canceled`, 990_000)]);
    await eventually(() => balanceOf(suite.wallet.base, b), (deci) => deci === 990_000);
    await quiet();
    expect(await balanceOf(suite.wallet.base, a)).toBe(0); // nothing spendable before delivery
    expect(referralCredits(a)).toEqual([]);

    await deliver(b, child); // the run's child order completes: 5 % of 10,000
    await eventually(() => balanceOf(suite.wallet.base, a), (deci) => deci === 500);
    await deliver(b, child);
    await deliver(b, autoId); // no order of that id was debited (the auto order's own id)
    await quiet();
    expect(await balanceOf(suite.wallet.base, a)).toBe(500);
    expect(await referralEntries(a)).toEqual([[`referral-order-${child}`, 'referral', 500]]);
    // The pair paid 10,000 deci-won for a delivered run and got 500 back: the cycle gains nothing.
    expect(1_000_000 - (await balanceOf(suite.wallet.base, b)) - (await balanceOf(suite.wallet.base, a))).toBe(9_500);
  });

  it('pays a partial order when its refund is credited: the share of what was charged minus refunded', async () => {
    const referrer = await newMember('parta');
    const referred = await newMember('partb', referrer, 10_000);
    const orderId = await pay(referred, 100_000);
    await deliver(referred, orderId, 3, 40); // partial with remains: the refund follows
    await quiet();
    expect(await balanceOf(suite.wallet.base, referrer)).toBe(0);
    await suite.publisher.publish(Topics.order, [suite.publisher.refund(referred, orderId, `order-${orderId}-partial`, 40_000)]);
    await eventually(() => balanceOf(suite.wallet.base, referrer), (deci) => deci === 3000); // 5 % of 60,000
    const credited = suite.received.of('PointCredited', (d) => d.referenceId === `order-${orderId}-partial`)[0]!;
    await suite.publisher.publish(Topics.wallet, [withNewId(credited)]);
    await quiet();
    expect(await referralEntries(referrer)).toEqual([[`referral-order-${orderId}`, 'referral', 3000]]);
  });

  it('pays nobody for members without a referrer, nor for a cancelled or forged delivery, and a member cannot read another member\'s referrals', async () => {
    const loner = await newMember('loner', null, 10_000);
    const referrer = await newMember('forgeda');
    const referred = await newMember('forgedb', referrer, 10_000);
    const before = await suite.wallet.store.referrals.earnings.countDocuments();
    await deliver(loner, await pay(loner, 10_000));
    const canceled = await pay(referred, 10_000);
    await deliver(referred, canceled, 5);
    await deliver(referred, nextOrderId++); // never debited
    await deliver(loner, canceled); // another member's order
    await quiet();
    expect(await suite.wallet.store.referrals.earnings.countDocuments()).toBe(before);
    expect(await balanceOf(suite.wallet.base, referrer)).toBe(0);
    expect((await client(suite.wallet.base, 'someone-else').get(`/referrals/${loner}`)).status).toBe(403);
    expect(await referralsOf(loner)).toMatchObject({ memberCount: 0, members: [], earningsDeci: 0, history: { items: [] } });
  });

  it('pays exactly the referrers of the referred members among deliveries that arrive together', async () => {
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
    await suite.publisher.publish(Topics.order, payers.map((userId, i) => suite.publisher.statusChanged(userId, orderIds[i]!, 2)));
    // 5 % of carol's 20,000 and grace's 60,000 deci-won to ann, of erin's 40,000 to ben.
    await eventually(() => balanceOf(suite.wallet.base, ann), (b) => b === 4000);
    await eventually(() => balanceOf(suite.wallet.base, ben), (b) => b === 2000);
    await quiet();
    const credited = suite.received.of('PointCredited', (d) => d.source === 'referral' && (d.userId === ann || d.userId === ben));
    expect(credited.map((e) => { const d = e.data as { userId: string; amountDeci: number }; return [d.userId, d.amountDeci]; }).sort()).toEqual([[ann, 1000], [ann, 3000], [ben, 2000]].sort());
    expect((await referralsOf(ann)).memberCount).toBe(2);
  });

  it('a refund after delivery takes the share back; what was spent is carried against the next shares and listed for operators', async () => {
    const referrer = await newMember('erin');
    const referred = await newMember('frank', referrer, 20_000);
    const orderId = await pay(referred, 100_000);
    await deliver(referred, orderId); // credit 5000
    await eventually(() => balanceOf(suite.wallet.base, referrer), (b) => b === 5000);
    await fund(suite.wallet.base, referrer, 5000);
    await pay(referrer, 53_000); // referrer spends all but 2000
    expect(await balanceOf(suite.wallet.base, referrer)).toBe(2000);

    const refund = suite.publisher.refund(referred, orderId, `order-${orderId}-canceled`, 100_000);
    await suite.publisher.publish(Topics.order, [refund, withNewId(refund)]);
    await eventually(() => balanceOf(suite.wallet.base, referrer), (b) => b === 0);
    expect((await referralsOf(referrer)).history.items[0]).toMatchObject({ kind: 'reversal', amountDeci: 2000, shortfallDeci: 3000 });
    const owing = async () => (await admin().get<{ items: Array<{ referrerId: string; owedDeci: number }> }>('/admin/referral-shortfalls')).body.items.find((r) => r.referrerId === referrer);
    expect(await owing()).toMatchObject({ owedDeci: 3000 });
    expect((await client(suite.wallet.base, referrer).get('/admin/referral-shortfalls')).status).toBe(403);

    // The next delivered order (share 5000) settles the 3000 first and pays 2000.
    const next = await pay(referred, 100_000);
    await deliver(referred, next);
    await eventually(() => balanceOf(suite.wallet.base, referrer), (b) => b === 2000);
    await quiet();
    expect(await balanceOf(suite.wallet.base, referrer)).toBe(2000);
    expect(await owing()).toBeUndefined();
    expect(await referralEntries(referrer)).toEqual([
      [`referral-order-${orderId}`, 'referral', 5000],
      [`referral-reversal-order-${orderId}-canceled`, 'referral-reversal', -2000],
      [`referral-order-${next}`, 'referral', 2000],
    ]);
    expect(await referralsOf(referrer)).toMatchObject({ earningsDeci: 5000 });
  });

  it('follows the operator\'s rate: new deliveries at the new rate, earlier credits and their reversals at theirs', async () => {
    const referrer = await newMember('grace');
    const referred = await newMember('heidi', referrer, 10_000);
    const first = await pay(referred, 10_000);
    await deliver(referred, first); // 5 % → 500
    await eventually(() => balanceOf(suite.wallet.base, referrer), (b) => b === 500);
    await setRate('12');
    const second = await pay(referred, 10_000);
    await deliver(referred, second); // 12 % → 1200
    await eventually(() => balanceOf(suite.wallet.base, referrer), (b) => b === 1700);
    expect((await referralsOf(referrer)).ratePercent).toBe(12);

    await suite.publisher.publish(Topics.order, [suite.publisher.refund(referred, first, `order-${first}-canceled`, 10_000)]);
    await eventually(() => balanceOf(suite.wallet.base, referrer), (b) => b === 1200); // 500 back, not 1200

    await setRate('0');
    await deliver(referred, await pay(referred, 10_000));
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
    // Replay is done when the new main group has caught up with the wallet and order topics (the last ones it reads).
    const kafkaAdmin = createKafka([suite.infra.kafka.brokers], 'wallet-referral-admin', logger).admin();
    await kafkaAdmin.connect();
    for (const topic of [Topics.order, Topics.wallet]) {
      const end = (await kafkaAdmin.fetchTopicOffsets(topic)).reduce((sum, o) => sum + Number(o.high), 0);
      await eventually(
        async () => (await kafkaAdmin.fetchOffsets({ groupId: `wallet-replay-${id}`, topics: [topic] }))[0]!.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0),
        (done) => done >= end,
        30_000,
      );
    }
    await kafkaAdmin.disconnect();
    await quiet();
    expect(await snapshot(suite.wallet)).toEqual(before);
    expect(suite.received.events.length).toBe(events);
  });
});
