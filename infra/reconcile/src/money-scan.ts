import type { Db } from 'mongodb';
import { ChargeStatus } from '@smm/contracts';
import type { Books } from './ledger-scan.ts';
import type { Findings } from './report.ts';
import type { Members } from './references.ts';

type TopUpRow = { _id: number; userId: string; pointDeci: number; transferDeci: number; status: number };
type DepositRow = { _id: string; status: string; topUpId: number | null; userId: string | null; amountDeci: number };
type AdjustmentRow = { _id: string; userId: string; deltaDeci: number };

/**
 * Credits from outside (top-ups) and operators' adjustments against the wallet's own records:
 * every `topup-<id>` credit is an approved request's, of its member and points; every approved
 * request was credited; every matched or attached deposit names an approved request of its member
 * and transfer amount, one deposit per request; every `adjustment-<id>` is a recorded adjustment.
 */
export async function scanMoney(wallet: Db, books: Books, members: Members, findings: Findings): Promise<{ topUps: number; deposits: number; adjustments: number }> {
  const byTopUp = new Map<number, DepositRow[]>();
  let deposits = 0;
  for await (const deposit of wallet.collection<DepositRow>('deposits').find({ status: { $in: ['matched', 'attached'] } }, { projection: { status: 1, topUpId: 1, userId: 1, amountDeci: 1 } })) {
    deposits += 1;
    if (deposit.topUpId === null) {
      findings.add('deposit-topup', `deposit ${deposit._id} is ${deposit.status} but names no top-up request`, { userId: deposit.userId ?? undefined, reference: deposit._id });
      continue;
    }
    const list = byTopUp.get(deposit.topUpId);
    if (list) list.push(deposit);
    else byTopUp.set(deposit.topUpId, [deposit]);
  }

  let topUps = 0;
  const approved = ChargeStatus.values.SUCCESS;
  for await (const topUp of wallet.collection<TopUpRow>('top_ups').find({}, { projection: { userId: 1, pointDeci: 1, transferDeci: 1, status: 1 }, batchSize: 1000 })) {
    topUps += 1;
    const reference = `topup-${topUp._id}`;
    const credit = books.topUps.get(topUp._id);
    books.topUps.delete(topUp._id);
    if (credit === undefined) {
      if (topUp.status === approved) findings.add('topup-without-credit', `top-up ${topUp._id} is approved (${topUp.pointDeci} deci-won) but the wallet holds no credit ${reference}`, { userId: topUp.userId, reference });
    } else if (topUp.status !== approved) {
      findings.add('topup-credit-unbacked', `credit ${reference} of ${credit.amount} deci-won, but top-up ${topUp._id} is not approved (status ${topUp.status})`, { userId: members.name(credit.u), reference });
    } else if (members.name(credit.u) !== topUp.userId || credit.amount !== topUp.pointDeci) {
      findings.add('topup-credit-unbacked', `credit ${reference} gives ${credit.amount} deci-won to ${members.name(credit.u)}; the approved top-up is ${topUp.userId}'s for ${topUp.pointDeci}`, { userId: members.name(credit.u), reference });
    }
    const matched = byTopUp.get(topUp._id);
    byTopUp.delete(topUp._id);
    if (matched === undefined) continue;
    if (matched.length > 1) findings.add('deposit-topup', `deposits ${matched.map((d) => d._id).join(', ')} all name top-up ${topUp._id}`, { userId: topUp.userId, reference });
    for (const d of matched) {
      if (topUp.status !== approved || d.userId !== topUp.userId || d.amountDeci !== topUp.transferDeci) {
        findings.add('deposit-topup', `deposit ${d._id} (${d.amountDeci} deci-won, member ${String(d.userId)}) names top-up ${topUp._id}: status ${topUp.status}, member ${topUp.userId}, transfer ${topUp.transferDeci}`, { userId: topUp.userId, reference: d._id });
      }
    }
  }
  for (const [id, credit] of books.topUps) {
    findings.add('topup-credit-unbacked', `credit topup-${id} of ${credit.amount} deci-won names no top-up request`, { userId: members.name(credit.u), reference: `topup-${id}` });
  }
  books.topUps.clear();
  for (const [topUpId, list] of byTopUp) {
    for (const d of list) findings.add('deposit-topup', `deposit ${d._id} is ${d.status} to top-up ${topUpId}, which does not exist`, { userId: d.userId ?? undefined, reference: d._id });
  }

  let adjustments = 0;
  for await (const adjustment of wallet.collection<AdjustmentRow>('adjustments').find({}, { projection: { userId: 1, deltaDeci: 1 } })) {
    adjustments += 1;
    const reference = `adjustment-${adjustment._id}`;
    const entry = books.adjustments.get(adjustment._id);
    books.adjustments.delete(adjustment._id);
    if (entry === undefined || members.name(entry.u) !== adjustment.userId || entry.amount !== adjustment.deltaDeci) {
      const moved = entry === undefined ? 'no ledger entry' : `a ledger entry of ${entry.amount} deci-won for ${members.name(entry.u)}`;
      findings.add('adjustment-unrecorded', `adjustment ${adjustment._id} (${adjustment.deltaDeci} deci-won for ${adjustment.userId}) has ${moved}`, { userId: adjustment.userId, reference });
    }
  }
  for (const [id, entry] of books.adjustments) {
    findings.add('adjustment-unrecorded', `ledger entry adjustment-${id} moves ${entry.amount} deci-won with no adjustment record (no reason, no operator)`, { userId: members.name(entry.u), reference: `adjustment-${id}` });
  }
  books.adjustments.clear();
  return { topUps, deposits, adjustments };
}
