import type { Db } from 'mongodb';
import type { Findings } from './report.ts';
import { type Members, type OrderKind, type RefundReason, parseEntry } from './references.ts';

/** A movement as kept in memory: member index and amount (positive deci-won). */
export type Movement = { u: number; amount: number };
export type RefundMovement = Movement & { reference: string; reason: RefundReason };
export type ReferralMovement = Movement & { reference: string; kind: OrderKind; id: number };

/**
 * The wallet's ledger, sorted by what each entry names. Orders can be many: debits are keyed by
 * the order's number (one small record each), refunds only exist for the orders that had one.
 */
export type Books = {
  debits: Record<OrderKind, Map<number, Movement>>;
  refunds: Record<OrderKind, Map<number, RefundMovement[]>>;
  referrals: ReferralMovement[];
  /** Reversals by the payment they take back from (`order-12`), summed. */
  reversals: Map<string, number>;
  topUps: Map<number, Movement>;
  adjustments: Map<string, Movement>;
  entries: number;
};

type EntryRow = { _id: string; userId: string; deltaDeci: number; source: string };

/** Streams `ledger_entries` once (a cursor: only the compact records above stay in memory). */
export async function scanLedger(wallet: Db, members: Members, findings: Findings): Promise<Books> {
  const books: Books = {
    debits: { order: new Map(), auto: new Map() },
    refunds: { order: new Map(), auto: new Map() },
    referrals: [],
    reversals: new Map(),
    topUps: new Map(),
    adjustments: new Map(),
    entries: 0,
  };
  const cursor = wallet.collection<EntryRow>('ledger_entries').find({}, { projection: { userId: 1, deltaDeci: 1, source: 1 }, batchSize: 1000 });
  for await (const row of cursor) {
    books.entries += 1;
    const reference = String(row._id);
    const parsed = parseEntry(row.source, reference, row.deltaDeci);
    if (parsed === null || !Number.isSafeInteger(row.deltaDeci)) {
      findings.add('unknown-entry', `ledger entry ${reference} (source ${row.source}, ${row.deltaDeci} deci-won) names nothing the wallet makes under that source`, { userId: row.userId, reference });
      continue;
    }
    const movement = { u: members.of(row.userId), amount: Math.abs(row.deltaDeci) };
    switch (parsed.type) {
      case 'debit':
        books.debits[parsed.kind].set(parsed.id, movement);
        break;
      case 'refund': {
        const list = books.refunds[parsed.kind].get(parsed.id);
        const refund = { ...movement, reference, reason: parsed.reason };
        if (list) list.push(refund);
        else books.refunds[parsed.kind].set(parsed.id, [refund]);
        break;
      }
      case 'referral':
        books.referrals.push({ ...movement, reference, kind: parsed.kind, id: parsed.id });
        break;
      case 'referral-reversal': {
        const payment = `${parsed.kind}-${parsed.id}`;
        books.reversals.set(payment, (books.reversals.get(payment) ?? 0) + movement.amount);
        break;
      }
      case 'topup':
        books.topUps.set(parsed.id, movement);
        break;
      case 'adjustment':
        books.adjustments.set(parsed.id, { u: movement.u, amount: row.deltaDeci });
        break;
    }
  }
  return books;
}

export const sumOf = (list: readonly Movement[] | undefined): number => (list ?? []).reduce((total, m) => total + m.amount, 0);
