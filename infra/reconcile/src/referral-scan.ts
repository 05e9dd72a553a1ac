import type { Db } from 'mongodb';
import { AutoOrderStatus, OrderStatus, defaultReferralRatePercent, parseReferralRate, settingKeys } from '@smm/contracts';
import type { Books } from './ledger-scan.ts';
import type { DeliveryFacts } from './orders-scan.ts';
import type { Findings } from './report.ts';
import { type Members, paymentKey } from './references.ts';

/** Delivered: the work is done (completed) or done as far as it goes (partial). */
const delivered = {
  order: new Set<number>([OrderStatus.values.COMPLETED, OrderStatus.values.PARTIAL]),
  auto: new Set<number>([AutoOrderStatus.values.COMPLETED, AutoOrderStatus.values.PARTIAL]),
};

/**
 * Every `referral-<order ref>` credit names an order of a member the credited member referred
 * (auth's record: the order's member signed up with the credited member's referral code), that
 * order is delivered (completed or partial), and what the referrer keeps of it (credit minus
 * reversals) is at most the rate's share of the delivered value — charged minus refunded. The rate
 * is the one kept with the credit's earning record (the wallet keeps it, so a later rate change
 * does not alter an old credit), else the wallet's current setting.
 */
export async function checkReferrals(wallet: Db, auth: Db, books: Books, delivery: ReadonlyMap<string, DeliveryFacts>, members: Members, findings: Findings): Promise<void> {
  if (books.referrals.length === 0) return;
  const references = books.referrals.map((r) => r.reference);
  const rates = new Map<string, number>();
  for await (const e of wallet.collection<{ _id: string; ratePercent: number }>('referral_earnings').find({ _id: { $in: references } }, { projection: { ratePercent: 1 } })) rates.set(e._id, e.ratePercent);
  const setting = await wallet.collection<{ _id: string; value: string }>('settings').findOne({ _id: settingKeys.referralRatePercent });
  const currentRate = parseReferralRate(setting?.value) ?? defaultReferralRatePercent;

  const buyers = [...new Set([...delivery.values()].map((d) => members.name(d.u)))];
  const codeOf = new Map<string, string>();
  for await (const m of auth.collection<{ _id: string; referredBy?: string }>('members').find({ _id: { $in: buyers } }, { projection: { referredBy: 1 } })) {
    if (m.referredBy) codeOf.set(m._id, m.referredBy);
  }
  const ownerOf = new Map<string, string>();
  const codes = [...new Set(codeOf.values())];
  for await (const m of auth.collection<{ _id: string; referralCode?: string }>('members').find({ referralCode: { $in: codes } }, { projection: { referralCode: 1 } })) {
    if (m.referralCode) ownerOf.set(m.referralCode, m._id);
  }

  for (const credit of books.referrals) {
    const key = paymentKey(credit.kind, credit.id);
    const referrer = members.name(credit.u);
    const extra = { userId: referrer, reference: credit.reference };
    const order = delivery.get(key);
    if (order === undefined) {
      findings.add('referral-without-order', `referral credit ${credit.reference} of ${credit.amount} deci-won names no ${credit.kind === 'order' ? 'order' : 'auto order'} ${credit.id}`, extra);
      continue;
    }
    const buyer = members.name(order.u);
    const code = codeOf.get(buyer);
    const actual = code === undefined ? undefined : ownerOf.get(code);
    if (actual !== referrer) {
      findings.add('referral-not-referrer', `referral credit ${credit.reference} pays ${referrer}, but ${buyer} (whose order it is) was referred by ${actual ?? 'no one'}`, extra);
    }
    if (order.status === null || !delivered[order.kind].has(order.status)) {
      findings.add('referral-undelivered', `referral credit ${credit.reference} of ${credit.amount} deci-won, but ${key} is not delivered (status ${String(order.status)})`, extra);
    }
    const rate = rates.get(credit.reference) ?? currentRate;
    const deliveredDeci = Math.max(0, order.chargeDeci - order.refundedDeci);
    const shareDeci = Math.floor((deliveredDeci * rate) / 100);
    const keptDeci = credit.amount - (books.reversals.get(key) ?? 0);
    if (keptDeci > shareDeci) {
      findings.add('referral-exceeds-share', `referral credit ${credit.reference} keeps ${keptDeci} deci-won; ${rate} % of the delivered ${deliveredDeci} (charged ${order.chargeDeci}, refunded ${order.refundedDeci}) is ${shareDeci}`, extra);
    }
  }
}
