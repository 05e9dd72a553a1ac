import { parseWon } from '@smm/contracts';
import { type Problem, messages, problem } from './messages.ts';

/** An admin's correction is bounded like a top-up: a typo must not move billions. */
const maxAdjustmentDeci = 100_000_000;

export type AdjustmentInput = { amountDeci: number; reason: string };

/** `amount` in won (negative takes points away, one decimal allowed), `reason` 1–200 characters. */
export function validateAdjustment(body: unknown): { ok: true; input: AdjustmentInput } | { ok: false; problem: Problem } {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const raw = input.amount;
  const negative = typeof raw === 'number' && raw < 0;
  const deci = typeof raw === 'number' ? parseWon(Math.abs(raw)) : undefined;
  if (deci === undefined || deci === 0 || deci > maxAdjustmentDeci) return { ok: false, problem: problem('AMOUNT_INVALID', messages.adjustmentAmountInvalid) };
  const reason = typeof input.reason === 'string' ? input.reason.trim() : '';
  if (reason === '') return { ok: false, problem: problem('REASON_REQUIRED', messages.adjustmentReasonRequired) };
  if (reason.length > 200) return { ok: false, problem: problem('REASON_TOO_LONG', messages.rejectReasonTooLong) };
  return { ok: true, input: { amountDeci: negative ? -deci : deci, reason } };
}
