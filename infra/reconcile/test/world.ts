import type { MongoClient } from 'mongodb';
import type { Databases } from '../src/index.ts';

/**
 * A small product whose books agree, as the services write them (collections and fields of
 * services/*\/src/store): a referrer R and the member B it referred, with a top-up, orders in
 * every state, an auto order with a run, referral credits on delivered orders, an adjustment.
 * A test changes one thing (`World`'s arrays are plain documents) and seeds it.
 */
export type World = {
  members: Array<Record<string, unknown>>;
  ledger: Array<{ _id: string; userId: string; deltaDeci: number; source: string }>;
  orders: Array<Record<string, unknown> & { _id: number }>;
  autoOrders: Array<Record<string, unknown> & { _id: number }>;
  forwards: Array<{ _id: number; userId: string }>;
  topUps: Array<Record<string, unknown> & { _id: number }>;
  deposits: Array<Record<string, unknown> & { _id: string }>;
  adjustments: Array<Record<string, unknown> & { _id: string }>;
  earnings: Array<{ _id: string; ratePercent: number }>;
};

export const R = 'user-referrer';
export const B = 'user-buyer';
export const O = 'user-other';

const order = (id: number, charge: number, payment: string, status: number | null, refundedDeci = 0, extra: Record<string, unknown> = {}) => ({
  _id: id,
  userId: B,
  chargeDeci: charge,
  payment,
  status,
  refundedDeci,
  autoOrderId: null,
  ...extra,
});

export function cleanWorld(): World {
  return {
    members: [
      { _id: R, loginId: 'referrer', referralCode: 'RCODE' },
      { _id: B, loginId: 'buyer', referredBy: 'RCODE' },
      { _id: O, loginId: 'other' },
    ],
    ledger: [
      { _id: 'topup-1', userId: B, deltaDeci: 100_000, source: 'topup' },
      { _id: 'order-10', userId: B, deltaDeci: -5000, source: 'order' },
      { _id: 'order-11', userId: B, deltaDeci: -3000, source: 'order' },
      { _id: 'order-11-canceled', userId: B, deltaDeci: 3000, source: 'refund' },
      { _id: 'order-12', userId: B, deltaDeci: -4000, source: 'order' },
      { _id: 'order-12-partial', userId: B, deltaDeci: 1000, source: 'refund' },
      { _id: 'order-15', userId: B, deltaDeci: -2000, source: 'order' },
      { _id: 'order-15-unpaid', userId: B, deltaDeci: 2000, source: 'refund' },
      { _id: 'order-16', userId: B, deltaDeci: -1000, source: 'order' },
      { _id: 'auto-40', userId: B, deltaDeci: -6000, source: 'order' },
      { _id: 'order-41-partial', userId: B, deltaDeci: 500, source: 'refund' },
      { _id: 'auto-40-canceled', userId: B, deltaDeci: 4000, source: 'refund' },
      // A subscription of 4 posts × 3,000 (issue 40): one post done (child order 51), it expired, 3 posts back.
      { _id: 'auto-50', userId: B, deltaDeci: -12_000, source: 'order' },
      { _id: 'auto-50-expired', userId: B, deltaDeci: 9000, source: 'refund' },
      // 5 % of the delivered value: 5,000 for order 10; 4,000 − 1,000 refunded for order 12.
      { _id: 'referral-order-10', userId: R, deltaDeci: 250, source: 'referral' },
      { _id: 'referral-order-12', userId: R, deltaDeci: 150, source: 'referral' },
      // A run of an auto order delivers as its child order: 5 % of 2,000 − 500 refunded.
      { _id: 'referral-order-41', userId: R, deltaDeci: 75, source: 'referral' },
      { _id: 'adjustment-a1', userId: O, deltaDeci: 1000, source: 'adjustment' },
    ],
    orders: [
      order(10, 5000, 'paid', 2),
      order(11, 3000, 'paid', 5, 3000),
      order(12, 4000, 'paid', 3, 1000),
      order(13, 1000, 'awaiting', null),
      order(14, 1000, 'rejected', null),
      order(15, 2000, 'rejected', null, 2000, { abandoned: true }),
      order(16, 1000, 'paid', 1),
      order(41, 2000, 'paid', 3, 500, { autoOrderId: 40, run: 1 }),
      order(51, 3000, 'paid', 2, 0, { autoOrderId: 50, run: 1 }),
    ],
    autoOrders: [
      { _id: 40, userId: B, chargeDeci: 6000, perRunDeci: 2000, runs: 3, completed: 1, payment: 'paid', status: 2, refundedDeci: 4500 },
      { _id: 50, userId: B, chargeDeci: 12_000, perRunDeci: 3000, runs: 4, completed: 1, payment: 'paid', status: 3, refundedDeci: 9000, subscription: { state: 'expired' } },
    ],
    forwards: [
      { _id: 10, userId: B },
      { _id: 12, userId: B },
      { _id: 16, userId: B },
      { _id: 41, userId: B },
      // A subscription is forwarded itself.
      { _id: 50, userId: B },
    ],
    topUps: [
      { _id: 1, userId: B, pointDeci: 100_000, transferDeci: 110_000, status: 1 },
      { _id: 2, userId: B, pointDeci: 50_000, transferDeci: 55_000, status: 0 },
      { _id: 3, userId: O, pointDeci: 10_000, transferDeci: 11_000, status: 2 },
    ],
    deposits: [
      { _id: 'bank:t1', status: 'matched', topUpId: 1, userId: B, amountDeci: 110_000 },
      { _id: 'bank:t2', status: 'unmatched', topUpId: null, userId: null, amountDeci: 7000 },
    ],
    adjustments: [{ _id: 'a1', userId: O, deltaDeci: 1000, reason: '보상', operatorId: 'admin' }],
    earnings: [
      { _id: 'referral-order-10', ratePercent: 5 },
      { _id: 'referral-order-12', ratePercent: 5 },
      { _id: 'referral-order-41', ratePercent: 5 },
    ],
  };
}

let seeded = 0;

/** Writes the world into four new databases and answers their names. */
export async function seed(client: MongoClient, world: World): Promise<Databases> {
  seeded += 1;
  const tag = `r${process.pid}-${seeded}`;
  const databases: Databases = { wallet: `wallet-${tag}`, order: `order-${tag}`, fulfillment: `fulfillment-${tag}`, auth: `auth-${tag}` };
  const put = async (db: string, collection: string, docs: ReadonlyArray<Record<string, unknown>>) => {
    if (docs.length > 0) await client.db(db).collection(collection).insertMany(docs.map((d) => ({ ...d })) as never);
  };
  await put(databases.auth, 'members', world.members);
  await put(databases.wallet, 'ledger_entries', world.ledger);
  await put(databases.wallet, 'top_ups', world.topUps);
  await put(databases.wallet, 'deposits', world.deposits);
  await put(databases.wallet, 'adjustments', world.adjustments);
  await put(databases.wallet, 'referral_earnings', world.earnings);
  await put(databases.order, 'orders', world.orders);
  await put(databases.order, 'auto_orders', world.autoOrders);
  await put(databases.fulfillment, 'forwards', world.forwards);
  return databases;
}

/** Finds a ledger entry of the world by reference (throws when the world has none). */
export function entry(world: World, id: string): World['ledger'][number] {
  const found = world.ledger.find((e) => e._id === id);
  if (!found) throw new Error(`no entry ${id}`);
  return found;
}

export const without = <T extends { _id: unknown }>(list: T[], id: unknown): T[] => list.filter((d) => d._id !== id);
