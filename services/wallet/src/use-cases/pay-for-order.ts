import { type EventOf, type OrderPlaced, PointDebitRejected, PointDebited, Topics, causedBy } from '@smm/contracts';
import { appendToOutbox, handleOnce } from '@smm/platform';
import { ledgerEntry, references } from '../domain/ledger.ts';
import { debitRefusal } from '../domain/point-account.ts';
import { isDuplicateReference } from '../store/ledger.model.ts';
import { type WalletDeps, consumerName } from './context.ts';

export type PaymentOutcome = 'debited' | 'rejected' | 'duplicate-event' | 'already-paid' | 'already-rejected';

/**
 * Pays for an order from the member's points, at most once per `(kind, orderId)`: the debit, its
 * ledger entry, the processed mark and PointDebited commit together, or a refusal is recorded with
 * PointDebitRejected. A copy of the event under a new event id finds the order already decided
 * (ledger entry or refusal record) and emits nothing, so the order service sees one outcome.
 */
export async function payForOrder(deps: WalletDeps, event: EventOf<typeof OrderPlaced>): Promise<PaymentOutcome> {
  const { store } = deps;
  const { userId, kind, orderId, chargeDeci } = event.data;
  const referenceId = references.payment(kind, orderId);
  let outcome: PaymentOutcome = 'debited';
  try {
    const handled = await handleOnce(store.connection, consumerName, event, async (session) => {
      if (await store.rejections.exists(referenceId, session)) {
        outcome = 'already-rejected';
        return;
      }
      const now = new Date();
      const after = await store.accounts.debit(userId, chargeDeci, session);
      if (after) {
        // A copy of an already-paid order fails here on the ledger's primary key and aborts the whole transaction.
        await store.ledger.append(ledgerEntry(after, -chargeDeci, 'order', referenceId, now), session);
        const debited = PointDebited.create(`account-${userId}`, { userId, kind, orderId, amountDeci: chargeDeci, balanceAfterDeci: after.balanceDeci }, causedBy(event), now);
        await appendToOutbox(store.connection, session, Topics.wallet, [debited]);
        outcome = 'debited';
        return;
      }
      // Refusals are rare; only here is it worth a read to rule out a copy of a paid order.
      if (await store.ledger.model.exists({ _id: referenceId }).session(session)) {
        outcome = 'already-paid';
        return;
      }
      const account = await store.accounts.find(userId, session);
      const reason = debitRefusal(account, chargeDeci);
      if (reason === null) throw new Error(`debit of ${referenceId} matched no account although the balance covers it`);
      await store.rejections.record({ _id: referenceId, userId, amountDeci: chargeDeci, reason, rejectedAt: now }, session);
      const rejected = PointDebitRejected.create(
        `account-${userId}`,
        { userId, kind, orderId, amountDeci: chargeDeci, balanceDeci: account?.balanceDeci ?? 0, reason },
        causedBy(event),
        now,
      );
      await appendToOutbox(store.connection, session, Topics.wallet, [rejected]);
      outcome = 'rejected';
    });
    if (handled === 'duplicate') return 'duplicate-event';
  } catch (error) {
    if (isDuplicateReference(error)) return 'already-paid';
    throw error;
  }
  if (outcome === 'debited' || outcome === 'rejected') deps.relay.kick();
  return outcome;
}
