import { type EventOf, PointCredited, type PointDebited, Topics, causedBy, defaultReferralRatePercent, parseReferralRate, settingKeys, type UserRegistered } from '@smm/contracts';
import { appendToOutbox, inTransaction } from '@smm/platform';
import { ledgerEntry, references } from '../domain/ledger.ts';
import { paymentOfRefund, referralReferences, referralReversal, referralShare } from '../domain/referral.ts';
import { debitIfCovered } from '../store/referral.model.ts';
import type { WalletDeps } from './context.ts';

export type ReferralOutcome = 'credited' | 'reversed' | 'recorded' | 'duplicate' | 'not-referred' | 'nothing-to-pay' | 'no-referrer-account';

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
 * A referred member paid for an order: the referrer gets floor(payment × rate %) as a `referral`
 * credit, exactly once per payment — the ledger entry's and the earning record's key is derived
 * from the payment, so a redelivered or replayed PointDebited finds it and pays nothing. The rate is the one in force when
 * the payment is handled and is kept with the credit, so a later rate change never alters it.
 * Called for members a read outside the transaction found referred (`referredAmong`: most members
 * were referred by no one, and every order's payment passes here); the transaction checks again.
 */
export async function creditReferral(deps: WalletDeps, event: EventOf<typeof PointDebited>): Promise<ReferralOutcome> {
  const { store } = deps;
  const payment = references.payment(event.data.kind, event.data.orderId);
  const reference = referralReferences.credit(payment);
  const ratePercent = await referralRate(deps);
  const outcome = await inTransaction(store.connection, async (session): Promise<ReferralOutcome> => {
    if (await store.referrals.earning(reference, session)) return 'duplicate';
    const referral = await store.referrals.referrerOf(event.data.userId, session);
    if (!referral) return 'not-referred';
    const amountDeci = referralShare(event.data.amountDeci, ratePercent);
    const now = new Date();
    const earning = { _id: reference, kind: 'credit' as const, referrerId: referral.referrerId, referredId: event.data.userId, paymentReference: payment, sourceDeci: event.data.amountDeci, ratePercent, amountDeci, requestedDeci: amountDeci, shortfallDeci: 0, createdAt: now };
    if (amountDeci <= 0) {
      // Decided at a rate that paid nothing: recorded all the same, so a replay under another rate pays nothing either.
      await store.referrals.insertEarning(earning, session);
      return 'nothing-to-pay';
    }
    const account = await store.accounts.credit(referral.referrerId, amountDeci, now, session, false);
    if (!account) return 'no-referrer-account';
    const entry = ledgerEntry(account, amountDeci, 'referral', reference, now);
    await store.ledger.append(entry, session);
    await store.referrals.insertEarning(earning, session);
    const announced = PointCredited.create(
      `account-${referral.referrerId}`,
      { userId: referral.referrerId, source: 'referral', referenceId: reference, amountDeci, balanceAfterDeci: entry.balanceAfterDeci },
      causedBy(event),
      now,
    );
    await appendToOutbox(store.connection, session, Topics.wallet, [announced]);
    return 'credited';
  });
  if (outcome === 'credited') deps.relay.kick();
  return outcome;
}

/**
 * A referred member got money back for a payment that paid a referrer: the referrer's share of the
 * refund goes back as a `referral-reversal` debit, once per refund, never below zero. When the
 * referrer already spent it, what could be taken is taken and the rest is recorded as a shortfall.
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
    const account = await store.accounts.find(credit.referrerId, session);
    const share = referralReversal(refundDeci, credit, await store.referrals.requestedBack(payment, session), account?.balanceDeci ?? 0);
    if (share.requestedDeci <= 0) return 'nothing-to-pay';
    const now = new Date();
    if (share.reversedDeci > 0) {
      const after = await debitIfCovered(store.accounts.model, credit.referrerId, share.reversedDeci, session);
      if (!after) throw new Error('the referrer balance changed while a reversal was decided'); // the transaction retries
      await store.ledger.append(ledgerEntry(after, -share.reversedDeci, 'referral-reversal', reference, now), session);
    }
    await store.referrals.insertEarning(
      { _id: reference, kind: 'reversal', referrerId: credit.referrerId, referredId: userId, paymentReference: payment, sourceDeci: refundDeci, ratePercent: credit.ratePercent, amountDeci: share.reversedDeci, requestedDeci: share.requestedDeci, shortfallDeci: share.shortfallDeci, createdAt: now },
      session,
    );
    return 'reversed';
  });
}
