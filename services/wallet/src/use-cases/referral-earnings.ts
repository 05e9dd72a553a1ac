import type { ClientSession } from 'mongoose';
import { type EventEnvelope, type EventOf, PointCredited, Topics, causedBy, defaultReferralRatePercent, parseReferralRate, settingKeys, type UserRegistered } from '@smm/contracts';
import { appendToOutbox, inTransaction } from '@smm/platform';
import { ledgerEntry, references } from '../domain/ledger.ts';
import { deliveredValue, paymentOfRefund, referralReferences, referralReversal, referralShare, shareAfterCarry } from '../domain/referral.ts';
import { debitIfCovered } from '../store/referral.model.ts';
import type { WalletDeps } from './context.ts';

/** `unproven`: a delivery of an order the wallet holds no debit of that member for (nothing recorded). */
export type ReferralOutcome = 'credited' | 'reversed' | 'recorded' | 'duplicate' | 'not-referred' | 'nothing-to-pay' | 'no-referrer-account' | 'unproven';

/** The operator's rate as the settings replica has it; the seeded default until catalog says otherwise. */
export async function referralRate(deps: WalletDeps): Promise<number> {
  return parseReferralRate(await deps.store.settings.get(settingKeys.referralRatePercent)) ?? defaultReferralRatePercent;
}

/** Remembers who referred a new member (auth resolved the code to `referrerId`). */
export async function recordReferral(deps: WalletDeps, event: EventOf<typeof UserRegistered>): Promise<ReferralOutcome> {
  const { userId, loginId, referrerId } = event.data;
  if (!referrerId || referrerId === userId) return 'not-referred';
  await inTransaction(deps.store.connection, (session) =>
    deps.store.referrals.record({ _id: userId, referrerId, loginId, registeredAt: new Date(event.occurredAt) }, session),
  );
  return 'recorded';
}

/**
 * A referred member's order was delivered (completed, or partial once its refund was credited): the
 * referrer gets floor(delivered value × rate %) as a `referral` credit `referral-order-<orderId>`,
 * exactly once per order — the ledger entry's and the earning record's key is derived from the
 * order, so a redelivered or replayed event finds it and pays nothing. The delivered value is what
 * the wallet's own ledger proves: the order's debit by that member (`order-12`), or for a run's
 * child order its auto order's debit (`auto-40`) divided by the runs, minus what was refunded of the
 * order. What the referrer owes from reversals they could not pay is settled from the share first.
 * The rate is the one in force when the delivery is handled and is kept with the credit.
 */
export async function creditDelivery(deps: WalletDeps, order: { orderId: number; userId: string }, cause: EventEnvelope): Promise<ReferralOutcome> {
  const { store } = deps;
  const orderReference = references.payment('order', order.orderId);
  const reference = referralReferences.credit(orderReference);
  const ratePercent = await referralRate(deps);
  const outcome = await inTransaction(store.connection, async (session): Promise<ReferralOutcome> => {
    if (await store.referrals.earning(reference, session)) return 'duplicate';
    const referral = await store.referrals.referrerOf(order.userId, session);
    if (!referral) return 'not-referred';
    const charge = await chargeOf(deps, order.orderId, session);
    if (!charge || charge.userId !== order.userId) return 'unproven';
    // An auto order credited whole at debit time, before rewards on delivery: its runs pay nothing more.
    if (charge.runs !== null && (await store.referrals.earning(referralReferences.credit(charge.debitReference), session))) return 'duplicate';
    const refunded = await store.ledger.refundedOfOrder(order.orderId, session);
    const sourceDeci = deliveredValue(charge, refunded.refundedDeci);
    const shareDeci = referralShare(sourceDeci, ratePercent);
    const { paidDeci, settledDeci } = shareAfterCarry(shareDeci, shareDeci > 0 ? await store.referrals.owed(referral.referrerId, session) : 0);
    const now = new Date();
    const earning = {
      _id: reference,
      kind: 'credit' as const,
      referrerId: referral.referrerId,
      referredId: order.userId,
      paymentReference: orderReference,
      debitReference: charge.debitReference,
      sourceDeci,
      ratePercent,
      amountDeci: paidDeci,
      requestedDeci: shareDeci,
      shortfallDeci: 0,
      settledDeci,
      refundsCounted: refunded.refundIds,
      createdAt: now,
    };
    if (settledDeci > 0) await store.referrals.settle(referral.referrerId, settledDeci, now, session);
    if (paidDeci <= 0) {
      // Nothing to pay (a rate of 0 %, nothing delivered, or all of it settled a carry): recorded all the same, so a replay pays nothing either.
      await store.referrals.insertEarning(earning, session);
      return 'nothing-to-pay';
    }
    const account = await store.accounts.credit(referral.referrerId, paidDeci, now, session, false);
    if (!account) return 'no-referrer-account';
    const entry = ledgerEntry(account, paidDeci, 'referral', reference, now);
    await store.ledger.append(entry, session);
    await store.referrals.insertEarning(earning, session);
    const announced = PointCredited.create(
      `account-${referral.referrerId}`,
      { userId: referral.referrerId, source: 'referral', referenceId: reference, amountDeci: paidDeci, balanceAfterDeci: entry.balanceAfterDeci },
      causedBy(cause),
      now,
    );
    await appendToOutbox(store.connection, session, Topics.wallet, [announced]);
    return 'credited';
  });
  if (outcome === 'credited') deps.relay.kick();
  return outcome;
}

/** What the wallet charged for an order: its own debit, or its share of the auto order it is a run of. */
async function chargeOf(deps: WalletDeps, orderId: number, session: ClientSession): Promise<{ userId: string; debitReference: string; debitDeci: number; runs: number | null } | null> {
  const { ledger, autoRuns } = deps.store;
  const own = await ledger.entry(references.payment('order', orderId), session);
  if (own?.source === 'order') return { userId: own.userId, debitReference: own.referenceId, debitDeci: -own.deltaDeci, runs: null };
  const run = (await autoRuns.find([orderId], session)).get(orderId);
  if (!run) return null;
  const parent = await ledger.entry(references.payment('auto', run.autoOrderId), session);
  if (parent?.source !== 'order' || parent.userId !== run.userId) return null;
  return { userId: parent.userId, debitReference: parent.referenceId, debitDeci: -parent.deltaDeci, runs: run.runs };
}

/**
 * A referred member got money back for an order (or, before rewards on delivery, a payment) that
 * paid a referrer: the referrer's share of the refund goes back as a `referral-reversal` debit, once
 * per refund, never below zero. When the referrer already spent it, what could be taken is taken
 * and the rest is a shortfall, carried against their next shares (GET /admin/referral-shortfalls).
 */
export async function reverseReferral(deps: WalletDeps, event: EventOf<typeof PointCredited>): Promise<ReferralOutcome> {
  const { store } = deps;
  const { referenceId: refundId, amountDeci: refundDeci, userId } = event.data;
  const payment = paymentOfRefund(refundId);
  if (event.data.source !== 'refund' || payment === null) return 'not-referred';
  const reference = referralReferences.reversal(refundId);
  return inTransaction(store.connection, async (session): Promise<ReferralOutcome> => {
    if (await store.referrals.earning(reference, session)) return 'duplicate';
    const credit = await store.referrals.earning(referralReferences.credit(payment), session);
    if (!credit || credit.referredId !== userId) return 'not-referred';
    // A refund the delivered value already left out (a partial order's own refund) takes nothing back.
    if (credit.refundsCounted?.includes(refundId)) return 'duplicate';
    const account = await store.accounts.find(credit.referrerId, session);
    // The whole share counts: the part that settled an earlier carry was value to the referrer too.
    const share = referralReversal(refundDeci, { amountDeci: credit.requestedDeci, ratePercent: credit.ratePercent }, await store.referrals.requestedBack(payment, session), account?.balanceDeci ?? 0);
    if (share.requestedDeci <= 0) return 'nothing-to-pay';
    const now = new Date();
    if (share.reversedDeci > 0) {
      const after = await debitIfCovered(store.accounts.model, credit.referrerId, share.reversedDeci, session);
      if (!after) throw new Error('the referrer balance changed while a reversal was decided'); // the transaction retries
      await store.ledger.append(ledgerEntry(after, -share.reversedDeci, 'referral-reversal', reference, now), session);
    }
    if (share.shortfallDeci > 0) await store.referrals.carry(credit.referrerId, share.shortfallDeci, now, session);
    await store.referrals.insertEarning(
      { _id: reference, kind: 'reversal', referrerId: credit.referrerId, referredId: userId, paymentReference: payment, sourceDeci: refundDeci, ratePercent: credit.ratePercent, amountDeci: share.reversedDeci, requestedDeci: share.requestedDeci, shortfallDeci: share.shortfallDeci, createdAt: now },
      session,
    );
    return 'reversed';
  });
}
