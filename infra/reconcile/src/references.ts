/**
 * The wallet's ledger references, read back into what they name (services/wallet/src/domain/
 * ledger.ts and referral.ts write them; order names its refunds `<kind>-<id>-<reason>`). A
 * reference of another shape, or under the wrong source, is itself a discrepancy.
 */
export type OrderKind = 'order' | 'auto';
/** `expired`: a subscription's unused posts given back at its expiry (issue 40; `auto-<id>-expired`). */
export type RefundReason = 'canceled' | 'partial' | 'unpaid' | 'expired';

export type ParsedEntry =
  | { type: 'debit'; kind: OrderKind; id: number }
  | { type: 'refund'; kind: OrderKind; id: number; reason: RefundReason }
  | { type: 'referral'; kind: OrderKind; id: number }
  | { type: 'referral-reversal'; kind: OrderKind; id: number; reason: RefundReason }
  | { type: 'topup'; id: number }
  | { type: 'adjustment'; id: string };

const order = '(order|auto)-(\\d{1,15})';
const reason = '(canceled|partial|unpaid|expired)';
const patterns = {
  debit: new RegExp(`^${order}$`),
  refund: new RegExp(`^${order}-${reason}$`),
  referral: new RegExp(`^referral-${order}$`),
  reversal: new RegExp(`^referral-reversal-${order}-${reason}$`),
  topup: /^topup-(\d{1,15})$/,
  adjustment: /^adjustment-(.+)$/,
};

/** What an entry's reference names, given its source and sign; null when they do not fit together. */
export function parseEntry(source: string, referenceId: string, deltaDeci: number): ParsedEntry | null {
  const credit = deltaDeci > 0;
  let m: RegExpExecArray | null;
  switch (source) {
    case 'order':
      m = patterns.debit.exec(referenceId);
      return m && !credit ? { type: 'debit', kind: m[1] as OrderKind, id: Number(m[2]) } : null;
    case 'refund':
      m = patterns.refund.exec(referenceId);
      return m && credit ? { type: 'refund', kind: m[1] as OrderKind, id: Number(m[2]), reason: m[3] as RefundReason } : null;
    case 'referral':
      m = patterns.referral.exec(referenceId);
      return m && credit ? { type: 'referral', kind: m[1] as OrderKind, id: Number(m[2]) } : null;
    case 'referral-reversal':
      m = patterns.reversal.exec(referenceId);
      return m && !credit ? { type: 'referral-reversal', kind: m[1] as OrderKind, id: Number(m[2]), reason: m[3] as RefundReason } : null;
    case 'topup':
      m = patterns.topup.exec(referenceId);
      return m && credit ? { type: 'topup', id: Number(m[1]) } : null;
    case 'adjustment':
      m = patterns.adjustment.exec(referenceId);
      return m && deltaDeci !== 0 ? { type: 'adjustment', id: m[1]! } : null;
    default:
      return null;
  }
}

/** The payment key of an order or auto order: `order-12`, `auto-40` (the debit's reference). */
export const paymentKey = (kind: OrderKind, id: number): string => `${kind}-${id}`;

/** Interns member ids: a large ledger names each member many times, kept once here. */
export class Members {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];

  of(userId: string): number {
    let index = this.ids.get(userId);
    if (index === undefined) {
      index = this.names.length;
      this.names.push(userId);
      this.ids.set(userId, index);
    }
    return index;
  }

  name(index: number): string {
    return this.names[index] ?? '?';
  }
}
