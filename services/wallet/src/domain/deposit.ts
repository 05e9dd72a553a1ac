import type { Problem } from './messages.ts';
import { messages, problem } from './messages.ts';

/**
 * A bank deposit (issue 12, spec §9): reported by a bank-transfer notification service or entered
 * by an operator. It is matched to a pending top-up request by depositor name and transfer amount
 * (fee included) within the request's 3-hour window; otherwise it waits for an operator.
 *
 * - matched: exactly one request fitted and was approved at once.
 * - unmatched / ambiguous: none or several fitted; an operator attaches it.
 * - attached: an operator attached it to a request or a member (credited then).
 */
export const depositStatuses = ['matched', 'unmatched', 'ambiguous', 'attached'] as const;
export type DepositStatus = (typeof depositStatuses)[number];
export const openDepositStatuses: readonly DepositStatus[] = ['unmatched', 'ambiguous'];

export type Deposit = {
  /** `bank:<transaction id>` or `manual:<uuid>`: one record per bank transaction, ever. */
  id: string;
  source: 'bank' | 'manual';
  transactionId: string;
  depositorName: string;
  amountDeci: number;
  depositedAt: Date;
  receivedAt: Date;
  status: DepositStatus;
  topUpId: number | null;
  userId: string | null;
  /** Requests that fitted when it arrived (several for an ambiguous one). */
  candidates: number[];
  resolvedBy: string | null;
  resolvedAt: Date | null;
};

export type DepositInput = { transactionId: string; depositorName: string; amountDeci: number; depositedAt: Date };

/** Won amounts a bank reports: whole won, positive, at most 100,000,000 (a typo guard). */
const maxDepositWon = 100_000_000;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The notification or the operator's entry, checked; money as exact deci-won. */
export function validateDeposit(body: unknown, now: Date): { ok: true; input: DepositInput } | { ok: false; problem: Problem } {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const transactionId = text(input.transactionId);
  if (!/^[A-Za-z0-9._:-]{1,100}$/.test(transactionId)) return { ok: false, problem: problem('TRANSACTION_ID_INVALID', messages.transactionIdInvalid) };
  const depositorName = text(input.depositorName);
  if (depositorName === '' || depositorName.length > 50) return { ok: false, problem: problem('DEPOSITOR_REQUIRED', messages.depositDepositorInvalid) };
  const amount = input.amount;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0 || amount > maxDepositWon) {
    return { ok: false, problem: problem('AMOUNT_INVALID', messages.depositAmountInvalid) };
  }
  let depositedAt = now;
  if (input.depositedAt !== undefined && input.depositedAt !== null) {
    const parsed = typeof input.depositedAt === 'string' ? new Date(input.depositedAt) : new Date(NaN);
    // A bank's clock may run a little ahead; a deposit "from the future" beyond that is a mistake.
    if (Number.isNaN(parsed.getTime()) || parsed.getTime() > now.getTime() + 5 * 60_000) {
      return { ok: false, problem: problem('DEPOSITED_AT_INVALID', messages.depositedAtInvalid) };
    }
    depositedAt = parsed;
  }
  return { ok: true, input: { transactionId, depositorName, amountDeci: amount * 10, depositedAt } };
}

/** Names compare without spaces, in one Unicode form and letter case ("홍 길동" = "홍길동"). */
export const depositorKey = (name: string): string => name.normalize('NFC').replace(/\s+/g, '').toLowerCase();

type Candidate = { id: number; name: string; transferDeci: number; createdAt: Date; expiresAt: Date; status: number };

/** The pending requests a deposit fits: same depositor, same transfer amount, deposited within the window. */
export function fittingRequests<T extends Candidate>(deposit: Pick<DepositInput, 'depositorName' | 'amountDeci' | 'depositedAt'>, pending: readonly T[]): T[] {
  const key = depositorKey(deposit.depositorName);
  const at = deposit.depositedAt.getTime();
  return pending.filter(
    (t) => t.status === 0 && t.transferDeci === deposit.amountDeci && depositorKey(t.name) === key && t.createdAt.getTime() <= at && at <= t.expiresAt.getTime(),
  );
}
