/**
 * Refund proof (pure rules): the wallet gives money back only for a payment its own ledger holds,
 * to the member it was taken from, and never more than was taken minus what already went back.
 *
 * Refund ids (RefundRequested, order service): `order-<id>-canceled`, `order-<id>-partial`,
 * `order-<id>-unpaid` (also for an auto order's id: a debit that arrived after the order was given
 * up) and `auto-<id>-canceled`. A payment is `order-<id>` (one-off) or `auto-<id>` (an auto order,
 * paid up front for every run). A run of an auto order becomes a child order with its own id
 * (AutoOrderRunPlaced); its refunds (`order-<childId>-…`) come out of the auto order's payment.
 */

/** A run of an auto order as AutoOrderRunPlaced announced it (the first announcement stands). */
export type AutoRun = { childOrderId: number; autoOrderId: number; userId: string; run: number; runs: number };

/** What the ledger proves about one payment: who paid, how much, and what went back already. */
export type PaymentBook = { reference: string; userId: string; debitDeci: number; refundedDeci: number; refundIds: ReadonlySet<string> };

export type RefundProof = { books: ReadonlyMap<string, PaymentBook>; runs: ReadonlyMap<number, AutoRun> };
export const noProof: RefundProof = { books: new Map(), runs: new Map() };

export type RefundRefusalReason = 'NO_ACCOUNT' | 'UNKNOWN_REFUND_ID' | 'ORDER_MISMATCH' | 'NO_DEBIT' | 'OTHER_MEMBER' | 'OVER_REFUND';

/** The order a refund id names: `order-12-canceled` → order 12, `auto-40-canceled` → auto order 40. */
export function refundTarget(refundId: string): { kind: 'order' | 'auto'; id: number } | null {
  const match = /^(order|auto)-(\d{1,15})-[a-z][a-z-]*$/.exec(refundId);
  if (!match) return null;
  const id = Number(match[2]);
  return id > 0 ? { kind: match[1] as 'order' | 'auto', id } : null;
}

/**
 * The payments a refund may come out of, most direct first: `auto-40-…` only `auto-40`;
 * `order-12-…` the one-off `order-12`, the auto order `auto-12` (its `-unpaid` refund), or the auto
 * order whose run child order 12 is. Order and auto order ids share one sequence, so at most one
 * of them exists in the ledger.
 */
export function candidatePayments(refundId: string, runs: ReadonlyMap<number, AutoRun>): string[] {
  const target = refundTarget(refundId);
  if (!target) return [];
  if (target.kind === 'auto') return [`auto-${target.id}`];
  const parent = runs.get(target.id);
  return [`order-${target.id}`, `auto-${target.id}`, ...(parent ? [`auto-${parent.autoOrderId}`] : [])];
}

/** The payment a ledger refund entry without a recorded payment belongs to (entries before refund proof). */
export function legacyPaymentNumber(refundId: string): number | null {
  return refundTarget(refundId)?.id ?? null;
}

export type RefundVerdict = { ok: true; payment: string } | { ok: false; reason: RefundRefusalReason; detail: string };

/**
 * Whether a refund is proven: its id names an order (and the same order as the event), the ledger
 * holds that order's payment by the same member, and this refund with the earlier ones stays within
 * the debit. The first candidate payment the ledger holds decides.
 */
export function refundVerdict(
  request: { userId: string; refundId: string; amountDeci: number; orderId?: number | undefined },
  proof: RefundProof,
): RefundVerdict {
  const { refundId, userId, amountDeci } = request;
  const target = refundTarget(refundId);
  if (!target) return { ok: false, reason: 'UNKNOWN_REFUND_ID', detail: `refund id ${refundId} names no order` };
  if (request.orderId !== undefined && request.orderId !== target.id) {
    return { ok: false, reason: 'ORDER_MISMATCH', detail: `refund ${refundId} arrived for order ${request.orderId}` };
  }
  const book = candidatePayments(refundId, proof.runs)
    .map((reference) => proof.books.get(reference))
    .find((b) => b !== undefined);
  if (!book) return { ok: false, reason: 'NO_DEBIT', detail: `the ledger holds no payment that refund ${refundId} gives back` };
  if (book.userId !== userId) return { ok: false, reason: 'OTHER_MEMBER', detail: `refund ${refundId} names member ${userId}, payment ${book.reference} was by another member` };
  const roomDeci = book.debitDeci - book.refundedDeci;
  if (amountDeci > roomDeci) {
    return { ok: false, reason: 'OVER_REFUND', detail: `refund ${refundId} of ${amountDeci} exceeds what remains of payment ${book.reference} (${book.debitDeci} debited, ${book.refundedDeci} refunded)` };
  }
  return { ok: true, payment: book.reference };
}
