/**
 * The rules the reconciliation checks, each naming one way a money movement and its cause can
 * disagree. README.md says what each means and what an operator does about it.
 */
export const rules = [
  'debit-without-order',
  'debit-mismatch',
  'debit-for-refused-order',
  'order-without-debit',
  'refund-without-debit',
  'refund-exceeds-debit',
  'refund-state',
  'refund-missing',
  'referral-without-order',
  'referral-not-referrer',
  'referral-undelivered',
  'referral-exceeds-share',
  'topup-credit-unbacked',
  'topup-without-credit',
  'deposit-topup',
  'adjustment-unrecorded',
  'forward-without-paid-order',
  'unknown-entry',
] as const;
export type Rule = (typeof rules)[number];

export type Discrepancy = { rule: Rule; detail: string; userId?: string; reference?: string };

/** The database of each service the check reads (on one cluster). */
export type Databases = { wallet: string; order: string; fulfillment: string; auth: string };

export type ReconcileReport = {
  /** The first `limit` discrepancies found (all of them below the limit). */
  discrepancies: Discrepancy[];
  /** Every discrepancy found, also beyond the list's limit. */
  total: number;
  byRule: Partial<Record<Rule, number>>;
  /** Documents read per kind. */
  counts: {
    ledgerEntries: number;
    orders: number;
    autoOrders: number;
    forwards: number;
    topUps: number;
    deposits: number;
    adjustments: number;
    referralCredits: number;
  };
  databases: Databases;
  startedAt: string;
  durationMs: number;
};

/** Collects discrepancies: counts all, keeps the first `limit`. */
export class Findings {
  readonly kept: Discrepancy[] = [];
  readonly byRule: Partial<Record<Rule, number>> = {};
  total = 0;

  constructor(private readonly limit: number) {}

  add(rule: Rule, detail: string, extra: { userId?: string | undefined; reference?: string | undefined } = {}): void {
    this.total += 1;
    this.byRule[rule] = (this.byRule[rule] ?? 0) + 1;
    if (this.kept.length >= this.limit) return;
    const found: Discrepancy = { rule, detail };
    if (extra.userId !== undefined) found.userId = extra.userId;
    if (extra.reference !== undefined) found.reference = extra.reference;
    this.kept.push(found);
  }
}
