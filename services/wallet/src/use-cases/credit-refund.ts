import { type EventOf, PointCredited, type RefundRequested, Topics, causedBy } from '@smm/contracts';
import { PermanentEventError, appendToOutbox, handleOnce } from '@smm/platform';
import { ledgerEntry } from '../domain/ledger.ts';
import { assertAmount } from '../domain/point-account.ts';
import { isDuplicateReference } from '../store/ledger.model.ts';
import { type WalletDeps, consumerName } from './context.ts';

export type RefundOutcome = 'credited' | 'duplicate-event' | 'already-refunded';

/** Gives points back once per refund id: credit, ledger entry and PointCredited in one transaction. */
export async function creditRefund(deps: WalletDeps, event: EventOf<typeof RefundRequested>): Promise<RefundOutcome> {
  const { store } = deps;
  const { refundId, userId, amountDeci } = event.data;
  assertAmount(amountDeci);
  try {
    const handled = await handleOnce(store.connection, consumerName, event, async (session) => {
      const now = new Date();
      const after = await store.accounts.credit(userId, amountDeci, now, session, false);
      // Money paid came from an account, so it goes back to one; anything else needs an operator.
      if (!after) throw new PermanentEventError(`refund ${refundId} names member ${userId} who has no point account`);
      await store.ledger.append(ledgerEntry(after, amountDeci, 'refund', refundId, now), session);
      const credited = PointCredited.create(
        `account-${userId}`,
        { userId, source: 'refund', referenceId: refundId, amountDeci, balanceAfterDeci: after.balanceDeci },
        causedBy(event),
        now,
      );
      await appendToOutbox(store.connection, session, Topics.wallet, [credited]);
    });
    if (handled === 'duplicate') return 'duplicate-event';
  } catch (error) {
    if (isDuplicateReference(error)) return 'already-refunded';
    throw error;
  }
  deps.relay.kick();
  return 'credited';
}
