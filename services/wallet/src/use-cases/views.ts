import { ChargeStatus, deciToWon } from '@smm/contracts';
import type { LedgerEntry } from '../domain/ledger.ts';
import type { TopUp } from '../domain/top-up.ts';

/** A top-up as its member sees it: money as won (`point`) and exact deci-won. */
export function topUpView(topUp: TopUp) {
  return {
    id: topUp.id,
    createdAt: topUp.createdAt.toISOString(),
    point: deciToWon(topUp.pointDeci),
    pointDeci: topUp.pointDeci,
    transferAmount: deciToWon(topUp.transferDeci),
    transferDeci: topUp.transferDeci,
    receiptType: topUp.receiptType,
    status: topUp.status,
    responseAt: topUp.responseAt ? topUp.responseAt.toISOString() : null,
    expiresAt: topUp.expiresAt.toISOString(),
    // Issue 40: the member sees why a failed request failed — the operator's reason, or who ended it.
    endedBy: endedBy(topUp),
    rejectReason: topUp.rejectReason ?? null,
  };
}

function endedBy(topUp: TopUp): 'operator' | 'expiry' | 'member' | null {
  if (topUp.status !== ChargeStatus.values.FAIL) return null;
  if (topUp.canceled === true) return 'member';
  return topUp.expired === true ? 'expiry' : 'operator';
}

/** Operators also see who asked, the depositor name and the receipt details. */
export function adminTopUpView(topUp: TopUp) {
  return {
    ...topUpView(topUp),
    userId: topUp.userId,
    name: topUp.name,
    paymentType: topUp.paymentType,
    feeValue: topUp.feeValue,
    rejectReason: topUp.rejectReason ?? null,
    receiptIssuedAt: topUp.receiptIssuedAt ? topUp.receiptIssuedAt.toISOString() : null,
    expired: topUp.expired === true,
  };
}

export function ledgerView(entry: LedgerEntry) {
  return {
    seq: entry.seq,
    createdAt: entry.createdAt.toISOString(),
    deltaDeci: entry.deltaDeci,
    balanceAfterDeci: entry.balanceAfterDeci,
    kind: entry.kind,
    source: entry.source,
    referenceId: entry.referenceId,
  };
}

export type Paged<T> = { items: T[]; page: number; pageSize: number; hasNext: boolean };

/** Turns `pageSize + 1` fetched rows into a page: the extra row only says there is a next page. */
export function paged<T, V>(rows: T[], page: number, pageSize: number, view: (row: T) => V): Paged<V> {
  return { items: rows.slice(0, pageSize).map(view), page, pageSize, hasNext: rows.length > pageSize };
}
