import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Topics, deadLetterTopic } from '@smm/contracts';
import { createKafka } from '@smm/platform';
import { checkLedger } from '../src/ledger-check.ts';
import { balanceOf, client, eventually, fund, logger, walletSuite, withNewId } from './support.ts';

/** Refund proof (issue 39 §3): the wallet credits only refunds its own ledger proves. */
const suite = walletSuite({ collector: 'wallet-refund-proof-collector' });
let nextOrderId = 5_000;

type Refused = { items: Array<{ refundId: string; userId: string; amountDeci: number; code: string; reason: string; timesSeen: number; creditedAt: string | null }> };
const refusedList = async (userId: string) => (await client(suite.wallet.base, 'operator-1', 'admin').get<Refused>(`/admin/refused-refunds?userId=${userId}`)).body.items;
const refundCredits = (userId: string) => suite.received.of('PointCredited', (d) => d.userId === userId && d.source === 'refund');

/** The dead letters of the payments consumer, as an operator's tool would read them. */
async function deadLetters(): Promise<Array<{ value: string; reason: string }>> {
  const kafka = createKafka([suite.infra.kafka.brokers], 'wallet-test-dlq', logger);
  const consumer = kafka.consumer({ groupId: `dlq-reader-${randomUUID()}`, sessionTimeout: 6000 });
  const letters: Array<{ value: string; reason: string }> = [];
  await consumer.connect();
  await consumer.subscribe({ topics: [deadLetterTopic('wallet-payments')], fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void letters.push({ value: message.value?.toString() ?? '', reason: message.headers?.['dlq-reason']?.toString() ?? '' }) });
  await eventually(() => letters.length, (n) => n > 0, 15_000).catch(() => undefined);
  await new Promise((r) => setTimeout(r, 500));
  await consumer.disconnect();
  return letters;
}

describe('refund proof (RefundRequested the ledger does not prove)', () => {
  it('credits nothing for a forged refund of a made-up order, lists it for operators and dead-letters it', async () => {
    const attacker = await suite.member();
    const madeUp = nextOrderId++;
    // What anyone who reaches the broker can do: a plain kafkajs producer, no outbox, no order service.
    const producer = createKafka([suite.infra.kafka.brokers], 'forger', logger).producer();
    await producer.connect();
    const forged = suite.publisher.refund(attacker, madeUp, `order-${madeUp}-canceled`, 100_000_000);
    await producer.send({ topic: Topics.order, messages: [{ key: forged.aggregateId, value: JSON.stringify(forged), headers: { 'event-type': 'RefundRequested' } }] });
    await producer.disconnect();

    const [listed] = await eventually(() => refusedList(attacker), (rows) => rows.length === 1, 20_000);
    expect(listed).toMatchObject({ refundId: `order-${madeUp}-canceled`, userId: attacker, amountDeci: 100_000_000, code: 'NO_DEBIT', timesSeen: 1, creditedAt: null });
    expect(await balanceOf(suite.wallet.base, attacker)).toBe(0);
    expect(refundCredits(attacker)).toEqual([]);
    const letters = await deadLetters();
    expect(letters.some((l) => l.value.includes(`order-${madeUp}-canceled`) && l.reason.includes('NO_DEBIT'))).toBe(true);
    // Members cannot read the list.
    expect((await client(suite.wallet.base, attacker).get('/admin/refused-refunds')).status).toBe(403);
  });

  it('refuses a refund beyond what was debited minus refunded, also when the debit and both refunds arrive in one run', async () => {
    const userId = await suite.member();
    await fund(suite.wallet.base, userId, 5_000); // 50,000 deci
    const orderId = nextOrderId++;
    const partial = suite.publisher.refund(userId, orderId, `order-${orderId}-partial`, 20_000);
    const canceled = suite.publisher.refund(userId, orderId, `order-${orderId}-canceled`, 30_000);
    await suite.publisher.publish(Topics.order, [suite.publisher.orderPlaced(userId, orderId, 40_000), partial, withNewId(partial), canceled]);
    const [over] = await eventually(() => refusedList(userId), (rows) => rows.length === 1, 20_000);
    expect(over).toMatchObject({ refundId: `order-${orderId}-canceled`, code: 'OVER_REFUND', amountDeci: 30_000 });
    expect(over!.reason).toContain('40000 debited, 20000 refunded');
    // Within the rest it is credited; another member cannot take refunds of this order.
    const stranger = await suite.member();
    await suite.publisher.publish(Topics.order, [suite.publisher.refund(userId, orderId, `order-${orderId}-unpaid`, 20_000), suite.publisher.refund(stranger, orderId, `order-${orderId}-x`, 1)]);
    await eventually(() => refusedList(stranger), (rows) => rows.length === 1, 20_000);
    expect((await refusedList(stranger))[0]).toMatchObject({ code: 'OTHER_MEMBER' });
    await eventually(() => balanceOf(suite.wallet.base, userId), (deci) => deci === 50_000);
    expect(refundCredits(userId).map((e) => (e.data as { referenceId: string }).referenceId).sort()).toEqual([`order-${orderId}-partial`, `order-${orderId}-unpaid`]);
    expect(await balanceOf(suite.wallet.base, stranger)).toBe(0);
  });

  it('gives a child order of an auto order back out of the auto order payment, never beyond it', async () => {
    const userId = await suite.member();
    await fund(suite.wallet.base, userId, 5_000); // 50,000 deci
    const autoId = nextOrderId++;
    const child = nextOrderId++;
    await suite.publisher.publish(Topics.order, [suite.publisher.orderPlaced(userId, autoId, 40_000, 'auto'), suite.publisher.runPlaced(userId, autoId, 1, 2, child)]);
    await eventually(() => balanceOf(suite.wallet.base, userId), (deci) => deci === 10_000);
    await suite.publisher.publish(Topics.order, [suite.publisher.refund(userId, child, `order-${child}-canceled`, 20_000)]);
    await suite.publisher.publish(Topics.order, [suite.publisher.refund(userId, autoId, `auto-${autoId}-canceled`, 20_000)]);
    await eventually(() => balanceOf(suite.wallet.base, userId), (deci) => deci === 50_000);
    await suite.publisher.publish(Topics.order, [suite.publisher.refund(userId, child, `order-${child}-partial`, 1)]);
    await eventually(() => refusedList(userId), (rows) => rows.length === 1, 20_000);
    expect((await refusedList(userId))[0]).toMatchObject({ refundId: `order-${child}-partial`, code: 'OVER_REFUND' });
    expect(await balanceOf(suite.wallet.base, userId)).toBe(50_000);
    expect((await checkLedger(suite.wallet.store.connection)).violations).toEqual([]);
  });

  it('gives a subscription back its unused posts once: the expiry refund, its replay and a forged second end are refused beyond the charge', async () => {
    const userId = await suite.member();
    await fund(suite.wallet.base, userId, 5_000); // 50,000 deci
    const subId = nextOrderId++;
    const post = nextOrderId++;
    // 4 posts × 3,000 deci charged up front; one post done (its order, 3,000 of it).
    await suite.publisher.publish(Topics.order, [suite.publisher.subscriptionPlaced(userId, subId, 4, 3_000), suite.publisher.runPlaced(userId, subId, 1, 4, post, true)]);
    await eventually(() => balanceOf(suite.wallet.base, userId), (deci) => deci === 38_000);
    const expired = suite.publisher.refund(userId, subId, `auto-${subId}-expired`, 9_000, 'subscription-ended');
    // The refund, the same event again, and under a new event id: credited once.
    await suite.publisher.publish(Topics.order, [expired, expired, withNewId(expired)]);
    await eventually(() => balanceOf(suite.wallet.base, userId), (deci) => deci === 47_000);
    // A forged cancel of the same subscription after its expiry: only the post's 3,000 is left of the payment, 9,000 is refused.
    await suite.publisher.publish(Topics.order, [suite.publisher.refund(userId, subId, `auto-${subId}-canceled`, 9_000, 'subscription-ended')]);
    const [over] = await eventually(() => refusedList(userId), (rows) => rows.length === 1, 20_000);
    expect(over).toMatchObject({ refundId: `auto-${subId}-canceled`, code: 'OVER_REFUND' });
    expect(over!.reason).toContain('12000 debited, 9000 refunded');
    expect(await balanceOf(suite.wallet.base, userId)).toBe(47_000);
    expect(refundCredits(userId).map((e) => (e.data as { referenceId: string }).referenceId)).toEqual([`auto-${subId}-expired`]);
    expect((await checkLedger(suite.wallet.store.connection)).violations).toEqual([]);
  });
});
