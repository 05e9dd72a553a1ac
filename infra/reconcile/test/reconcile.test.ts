import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Infra, startInfra } from '@smm/testkit';
import { type ReconcileReport, type Rule, reconcile } from '../src/index.ts';
import { B, O, R, type World, cleanWorld, entry, seed, without } from './world.ts';

// Real databases in a real MongoDB (embedded or a container), seeded as the services write them:
// a clean product reconciles to nothing, and each fault makes exactly its own rule fire, once, on
// the reference it is about — so removing a rule's check fails its case.
let infra: Infra;
let client: MongoClient;

beforeAll(async () => {
  infra = await startInfra();
  client = await MongoClient.connect(infra.mongo.url);
});
afterAll(async () => {
  await client?.close();
  await infra?.stop();
});

async function run(world: World): Promise<ReconcileReport> {
  const databases = await seed(client, world);
  return reconcile({ client, databases, recheckAfterMs: 0 });
}

describe('reconcile', () => {
  it('finds nothing in a product whose books agree, and says what it read', async () => {
    const report = await run(cleanWorld());
    expect(report.discrepancies).toEqual([]);
    expect(report.total).toBe(0);
    expect(report.counts).toEqual({ ledgerEntries: 18, orders: 9, autoOrders: 2, forwards: 5, topUps: 3, deposits: 1, adjustments: 1, referralCredits: 3 });
    expect(report.databases.wallet).toMatch(/^wallet-/);
  });

  const cases: Array<{ name: string; rule: Rule; reference: string; userId?: string; fault: (w: World) => void }> = [
    { name: 'a debit for an order that does not exist', rule: 'debit-without-order', reference: 'order-99', fault: (w) => w.ledger.push({ _id: 'order-99', userId: B, deltaDeci: -1000, source: 'order' }) },
    { name: 'a debit of another amount than the order', rule: 'debit-mismatch', reference: 'order-10', fault: (w) => (entry(w, 'order-10').deltaDeci = -4000) },
    { name: 'a debit of another member than the order', rule: 'debit-mismatch', reference: 'order-16', userId: O, fault: (w) => (entry(w, 'order-16').userId = O) },
    { name: 'a debit for an order refused payment', rule: 'debit-for-refused-order', reference: 'order-14', fault: (w) => w.ledger.push({ _id: 'order-14', userId: B, deltaDeci: -1000, source: 'order' }) },
    { name: 'a given-up order debited and never refunded', rule: 'debit-for-refused-order', reference: 'order-15-unpaid', fault: (w) => (w.ledger = without(w.ledger, 'order-15-unpaid')) },
    { name: 'a paid order the wallet never debited', rule: 'order-without-debit', reference: 'order-10', fault: (w) => (w.ledger = without(w.ledger, 'order-10')) },
    { name: 'a paid auto order the wallet never debited', rule: 'order-without-debit', reference: 'auto-42', fault: (w) => w.autoOrders.push({ _id: 42, userId: B, chargeDeci: 3000, perRunDeci: 1000, runs: 3, completed: 0, payment: 'paid', status: 0, refundedDeci: 0 }) },
    { name: 'a refund naming no order', rule: 'refund-without-debit', reference: 'order-98-canceled', fault: (w) => w.ledger.push({ _id: 'order-98-canceled', userId: B, deltaDeci: 1000, source: 'refund' }) },
    { name: 'a refund paid to another member', rule: 'refund-without-debit', reference: 'order-11-canceled', userId: O, fault: (w) => (entry(w, 'order-11-canceled').userId = O) },
    { name: 'refunds of an order beyond its debit', rule: 'refund-exceeds-debit', reference: 'order-11', fault: (w) => (entry(w, 'order-11-canceled').deltaDeci = 3500) },
    { name: "refunds of an auto order and its runs beyond the auto order's debit", rule: 'refund-exceeds-debit', reference: 'auto-40', fault: (w) => (entry(w, 'auto-40-canceled').deltaDeci = 5600) },
    { name: 'a refund for an order that is not canceled or partial', rule: 'refund-state', reference: 'order-16-partial', fault: (w) => w.ledger.push({ _id: 'order-16-partial', userId: B, deltaDeci: 500, source: 'refund' }) },
    { name: 'a canceled order whose refund never came', rule: 'refund-missing', reference: 'order-11-canceled', fault: (w) => (w.ledger = without(w.ledger, 'order-11-canceled')) },
    { name: 'a canceled auto order whose refund never came', rule: 'refund-missing', reference: 'auto-40-canceled', fault: (w) => (w.ledger = without(w.ledger, 'auto-40-canceled')) },
    { name: 'a referral credit naming no order', rule: 'referral-without-order', reference: 'referral-order-97', userId: R, fault: (w) => w.ledger.push({ _id: 'referral-order-97', userId: R, deltaDeci: 100, source: 'referral' }) },
    { name: 'a referral credit to a member who referred no one', rule: 'referral-not-referrer', reference: 'referral-order-10', userId: O, fault: (w) => (entry(w, 'referral-order-10').userId = O) },
    { name: 'a referral credit for an order not delivered', rule: 'referral-undelivered', reference: 'referral-order-16', userId: R, fault: (w) => w.ledger.push({ _id: 'referral-order-16', userId: R, deltaDeci: 10, source: 'referral' }) },
    { name: 'a referral credit above the share of the delivered value', rule: 'referral-exceeds-share', reference: 'referral-order-12', userId: R, fault: (w) => (entry(w, 'referral-order-12').deltaDeci = 151) },
    { name: "a run's referral credit above the share of what the run delivered", rule: 'referral-exceeds-share', reference: 'referral-order-41', userId: R, fault: (w) => (entry(w, 'referral-order-41').deltaDeci = 76) },
    { name: 'a top-up credit for a request not approved', rule: 'topup-credit-unbacked', reference: 'topup-2', fault: (w) => w.ledger.push({ _id: 'topup-2', userId: B, deltaDeci: 50_000, source: 'topup' }) },
    { name: 'a top-up credit of another amount', rule: 'topup-credit-unbacked', reference: 'topup-1', fault: (w) => (entry(w, 'topup-1').deltaDeci = 110_000) },
    { name: 'an approved top-up never credited', rule: 'topup-without-credit', reference: 'topup-1', fault: (w) => (w.ledger = without(w.ledger, 'topup-1')) },
    { name: "a matched deposit of another amount than its request's transfer", rule: 'deposit-topup', reference: 'bank:t1', fault: (w) => (w.deposits[0]!.amountDeci = 100_000) },
    { name: 'an adjustment entry without its record', rule: 'adjustment-unrecorded', reference: 'adjustment-a1', userId: O, fault: (w) => (w.adjustments = []) },
    { name: 'a forward of an order not paid', rule: 'forward-without-paid-order', reference: 'order-13', fault: (w) => w.forwards.push({ _id: 13, userId: B }) },
    { name: 'a forward of an auto order that is no subscription', rule: 'forward-without-paid-order', reference: 'order-40', fault: (w) => w.forwards.push({ _id: 40, userId: B }) },
    // Subscriptions (issue 40): an auto order whose runs are posts; its unused posts go back once, as `auto-<id>-expired` or `-canceled`.
    { name: 'an expiry refund of an auto order that is no expired subscription', rule: 'refund-state', reference: 'auto-40-expired', fault: (w) => w.ledger.push({ _id: 'auto-40-expired', userId: B, deltaDeci: 100, source: 'refund' }) },
    { name: 'a cancel refund of a subscription that expired', rule: 'refund-state', reference: 'auto-50-canceled', fault: (w) => w.ledger.push({ _id: 'auto-50-canceled', userId: B, deltaDeci: 100, source: 'refund' }) },
    { name: "a subscription's refunds beyond its debit", rule: 'refund-exceeds-debit', reference: 'auto-50', fault: (w) => (entry(w, 'auto-50-expired').deltaDeci = 12_001) },
    { name: 'an expired subscription whose refund never came', rule: 'refund-missing', reference: 'auto-50-canceled', fault: (w) => (w.ledger = without(w.ledger, 'auto-50-expired')) },
    { name: 'a ledger entry of an unknown kind', rule: 'unknown-entry', reference: 'gift-1', fault: (w) => w.ledger.push({ _id: 'gift-1', userId: B, deltaDeci: 500, source: 'refund' }) },
  ];

  it.each(cases)('$rule: $name', async ({ rule, reference, userId, fault }) => {
    const world = cleanWorld();
    fault(world);
    const report = await run(world);
    expect(report.discrepancies.map(({ rule: r, reference: ref, userId: u }) => ({ rule: r, reference: ref, userId: u }))).toEqual([{ rule, reference, userId: userId ?? B }]);
    expect(report.byRule).toEqual({ [rule]: 1 });
  });

  it('only reads: no write command reaches the server while it runs', async () => {
    const world = cleanWorld();
    world.ledger.push({ _id: 'order-99', userId: B, deltaDeci: -1000, source: 'order' });
    const databases = await seed(client, world);
    const writes = async () => {
      const status = await client.db('admin').command({ serverStatus: 1 });
      const commands = status.metrics.commands as Record<string, { total: number | { toNumber(): number } }>;
      return ['insert', 'update', 'delete', 'findAndModify', 'create', 'createIndexes'].map((name) => Number(commands[name]?.total ?? 0));
    };
    const before = await writes();
    const report = await reconcile({ client, databases, recheckAfterMs: 0 });
    expect(report.total).toBe(1);
    expect(await writes()).toEqual(before);
  });

  it('counts every discrepancy but lists only up to its limit', async () => {
    const world = cleanWorld();
    for (let i = 0; i < 5; i++) world.ledger.push({ _id: `order-${90 + i}`, userId: B, deltaDeci: -100, source: 'order' });
    const databases = await seed(client, world);
    const report = await reconcile({ client, databases, recheckAfterMs: 0, limit: 2 });
    expect(report.total).toBe(5);
    expect(report.discrepancies).toHaveLength(2);
    expect(report.byRule).toEqual({ 'debit-without-order': 5 });
  });
});
