import { randomUUID } from 'node:crypto';
import { type EventOrigin, PointAdjusted, Topics, settingKeys } from '@smm/contracts';
import { type OperatorAction, appendToOutbox, inTransaction, recordOperatorAction } from '@smm/platform';
import type { AdjustmentInput } from '../domain/adjustment.ts';
import { dutyProblem } from '../domain/duties.ts';
import { ledgerEntry, references } from '../domain/ledger.ts';
import { type Problem, messages, problem } from '../domain/messages.ts';
import { type Adjustment, moveBalance } from '../store/adjustment.model.ts';
import type { WalletDeps } from './context.ts';

export type AdjustResult = { ok: true; adjustment: Adjustment } | { ok: false; status: 403 | 404 | 409; problem: Problem };

/**
 * An admin's balance adjustment: the balance moves, a ledger entry of source `adjustment` and the
 * adjustment with its reason are written, and PointAdjusted goes to the outbox, all in one
 * transaction. The balance is never set, only moved, so the ledger still sums to it.
 */
export async function adjustBalance(
  deps: WalletDeps,
  userId: string,
  input: AdjustmentInput,
  operatorId: string,
  origin: EventOrigin,
  actor?: OperatorAction['caller'],
): Promise<AdjustResult> {
  const { store } = deps;
  // Issue 39: no operator moves their own balance (staff make no adjustments at all: the route).
  const refused = actor ? dutyProblem(actor, userId, input.amountDeci > 0 ? input.amountDeci : null, await store.settings.get(settingKeys.staffApprovalLimitWon)) : null;
  if (refused) return { ok: false, status: 403, problem: refused };
  const result = await inTransaction(store.connection, async (session): Promise<AdjustResult> => {
    const after = await moveBalance(store.accounts.model as never, userId, input.amountDeci, session);
    if (!after) {
      const exists = await store.accounts.find(userId, session);
      return exists
        ? { ok: false, status: 409, problem: problem('BALANCE_BELOW_ZERO', messages.adjustmentBelowZero) }
        : { ok: false, status: 404, problem: problem('ACCOUNT_NOT_FOUND', messages.accountNotFound) };
    }
    const now = new Date();
    const id = randomUUID();
    await store.ledger.append(ledgerEntry(after, input.amountDeci, 'adjustment', references.adjustment(id), now), session);
    const adjustment: Adjustment = { id, userId, deltaDeci: input.amountDeci, balanceAfterDeci: after.balanceDeci, reason: input.reason, operatorId, createdAt: now };
    await store.adjustments.insert(adjustment, session);
    await appendToOutbox(store.connection, session, Topics.wallet, [
      PointAdjusted.create(
        `account-${userId}`,
        { userId, adjustmentId: id, amountDeci: input.amountDeci, balanceAfterDeci: after.balanceDeci, reason: input.reason, operatorId },
        origin,
        now,
      ),
    ]);
    if (actor) {
      const act = { caller: actor, action: 'wallet.balance.adjust', target: { type: 'member', id: userId }, beneficiaryId: userId } as const;
      const before = { balanceDeci: after.balanceDeci - input.amountDeci };
      await recordOperatorAction(store.connection, session, { ...act, before, after: { balanceDeci: after.balanceDeci, reason: input.reason } }, origin);
    }
    return { ok: true, adjustment };
  });
  if (result.ok) deps.relay.kick();
  return result;
}
