import type { Connection } from 'mongoose';
import { type LedgerViolation, checkAccountLedger } from '../domain/ledger.ts';
import { referralEntryProblem } from '../domain/referral.ts';

export type LedgerReport = {
  ok: boolean;
  accounts: number;
  entries: number;
  totalBalanceDeci: number;
  violations: LedgerViolation[];
};

type EntryRow = { _id: string; userId: string; seq: number; deltaDeci: number; balanceAfterDeci: number; kind: 'debit' | 'credit'; source?: string };

/**
 * Proves the wallet's books over the whole database: for every account, its ledger entries sum to
 * its balance, run 1..n without gaps, chain their balanceAfter values, and never go below zero;
 * every entry belongs to an account and every reference appears once.
 */
export async function checkLedger(connection: Connection): Promise<LedgerReport> {
  const db = connection.db;
  if (!db) throw new Error('not connected');
  const byUser = new Map<string, EntryRow[]>();
  const references = new Map<string, number>();
  let entries = 0;
  const violations: LedgerViolation[] = [];
  for await (const row of db.collection<EntryRow>('ledger_entries').find({}, { projection: { userId: 1, seq: 1, deltaDeci: 1, balanceAfterDeci: 1, kind: 1, source: 1 } })) {
    entries++;
    const referralProblem = referralEntryProblem({ ...row, referenceId: row._id });
    if (referralProblem) violations.push({ userId: row.userId, rule: 'referral-kind', detail: referralProblem });
    references.set(row._id, (references.get(row._id) ?? 0) + 1);
    const list = byUser.get(row.userId);
    if (list) list.push(row);
    else byUser.set(row.userId, [row]);
  }
  for (const [referenceId, count] of references) {
    if (count > 1) violations.push({ userId: '-', rule: 'unique-reference', detail: `${referenceId} appears ${count} times` });
  }
  let accounts = 0;
  let totalBalanceDeci = 0;
  const accountRows = db.collection<{ _id: string; balanceDeci: number; seq?: number }>('point_accounts').find({}, { projection: { balanceDeci: 1, seq: 1 } });
  for await (const account of accountRows) {
    accounts++;
    totalBalanceDeci += account.balanceDeci;
    const rows = byUser.get(account._id) ?? [];
    byUser.delete(account._id);
    violations.push(...checkAccountLedger({ userId: account._id, balanceDeci: account.balanceDeci, seq: account.seq }, rows.map((r) => ({ ...r, referenceId: r._id }))));
  }
  for (const [userId, rows] of byUser) {
    violations.push({ userId, rule: 'entry-without-account', detail: `${rows.length} entries but no point account` });
  }
  return { ok: violations.length === 0, accounts, entries, totalBalanceDeci, violations };
}
