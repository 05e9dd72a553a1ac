import { setTimeout as sleep } from 'node:timers/promises';
import { type Db, MongoClient, type ReadPreferenceMode } from 'mongodb';
import { scanLedger } from './ledger-scan.ts';
import { scanMoney } from './money-scan.ts';
import { type ShortRefund, scanOrders } from './orders-scan.ts';
import { checkReferrals } from './referral-scan.ts';
import { type Databases, Findings, type ReconcileReport } from './report.ts';
import { Members, paymentKey } from './references.ts';

/** The devstack names each service's database after the service (infra/devstack, databaseUrl). */
export const defaultDatabases: Databases = { wallet: 'wallet', order: 'order', fulfillment: 'fulfillment', auth: 'auth' };

export type ReconcileOptions = {
  /** An open client on the cluster; or `url` to open (and close) one. */
  client?: MongoClient;
  url?: string;
  databases?: Partial<Databases>;
  /**
   * Where reads go. `secondaryPreferred` (the default) keeps a long check off a replica set's
   * primary; a one-node set (the embedded server) answers from its primary.
   */
  readPreference?: ReadPreferenceMode;
  /** Discrepancies listed in the report (all are counted); default 1,000. */
  limit?: number;
  /**
   * A refund order asked for reaches the wallet through Kafka: one missing at the end of the pass is
   * read again after this long before it counts (default 2,000 ms).
   */
  recheckAfterMs?: number;
};

/**
 * Reads every service's records and pairs each money movement with its cause (README.md lists the
 * rules). Read-only: it sends finds and nothing else. Each collection is read once through a
 * cursor; what stays in memory is one small record per debit and per paid order (fine to about a
 * million orders), the rest per refund, referral credit or top-up.
 */
export async function reconcile(options: ReconcileOptions): Promise<ReconcileReport> {
  const started = Date.now();
  const databases: Databases = { ...defaultDatabases, ...options.databases };
  const own = options.client === undefined;
  if (own && options.url === undefined) throw new Error('reconcile needs a client or a url');
  const client = options.client ?? (await MongoClient.connect(options.url!, { readPreference: options.readPreference ?? 'secondaryPreferred', serverSelectionTimeoutMS: 10_000 }));
  try {
    const readPreference = options.readPreference ?? 'secondaryPreferred';
    const db = (name: string): Db => client.db(name, { readPreference });
    const wallet = db(databases.wallet);
    const findings = new Findings(options.limit ?? 1000);
    const members = new Members();

    const books = await scanLedger(wallet, members, findings);
    const wanted = new Set(books.referrals.map((r) => paymentKey(r.kind, r.id)));
    const orders = await scanOrders(db(databases.order), books, members, wanted, findings);
    await checkReferrals(wallet, db(databases.auth), books, orders.delivery, members, findings);
    const forwards = await checkForwards(db(databases.fulfillment), orders.paid, members, findings);
    orders.paid.clear();
    const money = await scanMoney(wallet, books, members, findings);
    await settleShortRefunds(wallet, orders.short, options.recheckAfterMs ?? 2000, findings);

    return {
      discrepancies: findings.kept,
      total: findings.total,
      byRule: findings.byRule,
      counts: {
        ledgerEntries: books.entries,
        orders: orders.orders,
        autoOrders: orders.autoOrders,
        forwards,
        topUps: money.topUps,
        deposits: money.deposits,
        adjustments: money.adjustments,
        referralCredits: books.referrals.length,
      },
      databases,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
    };
  } finally {
    if (own) await client.close();
  }
}

/** Every forward fulfillment holds is for a paid order of the same member. */
async function checkForwards(fulfillment: Db, paid: ReadonlyMap<number, number>, members: Members, findings: Findings): Promise<number> {
  let count = 0;
  for await (const forward of fulfillment.collection<{ _id: number; userId: string }>('forwards').find({}, { projection: { userId: 1 }, batchSize: 1000 })) {
    count += 1;
    const u = paid.get(forward._id);
    if (u === undefined) {
      findings.add('forward-without-paid-order', `forward ${forward._id} goes to a provider, but order ${forward._id} does not exist or is not paid`, { userId: forward.userId, reference: `order-${forward._id}` });
    } else if (members.name(u) !== forward.userId) {
      findings.add('forward-without-paid-order', `forward ${forward._id} is ${forward.userId}'s; order ${forward._id} is ${members.name(u)}'s`, { userId: forward.userId, reference: `order-${forward._id}` });
    }
  }
  return count;
}

/** Refunds short at the end of the pass, read again after a while: only those still short count. */
async function settleShortRefunds(wallet: Db, short: readonly ShortRefund[], afterMs: number, findings: Findings): Promise<void> {
  if (short.length === 0) return;
  if (afterMs > 0) await sleep(afterMs);
  const ledger = wallet.collection<{ _id: string; deltaDeci: number; source: string }>('ledger_entries');
  for (let i = 0; i < short.length; i += 500) {
    const batch = short.slice(i, i + 500);
    const credited = new Map<string, number>();
    const ids = batch.flatMap((s) => s.references);
    for await (const e of ledger.find({ _id: { $in: ids }, source: 'refund' }, { projection: { deltaDeci: 1, source: 1 } })) credited.set(e._id, e.deltaDeci);
    for (const s of batch) {
      const creditedDeci = s.references.reduce((total, r) => total + (credited.get(r) ?? 0), 0);
      if (creditedDeci < s.expectedDeci) findings.add(s.rule, `${s.detail} ${creditedDeci}`, { userId: s.userId, reference: s.reference });
    }
  }
}
