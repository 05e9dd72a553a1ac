import { z } from 'zod';
import { deciWonSchema } from '../money.ts';
import { defineEvent } from '../envelope.ts';
import { receiptTypeSchema } from '../statuses.ts';

/**
 * What a payment is for: a one-off order or an auto order (charged in full up front). Together with
 * `orderId` it names the debit; wallet debits each `(kind, orderId)` at most once.
 */
export const paymentKindSchema = z.enum(['order', 'auto']);
export type PaymentKind = z.infer<typeof paymentKindSchema>;

const userId = z.string().min(1);
const orderId = z.number().int().positive();
const topUpId = z.number().int().positive();

/**
 * Points were taken for an order. Aggregate id: `account-<userId>` (every wallet event is keyed by
 * the account, so one member's movements stay in order).
 */
export const PointDebited = defineEvent(
  'PointDebited',
  1,
  z.object({ userId, kind: paymentKindSchema, orderId, amountDeci: deciWonSchema.positive(), balanceAfterDeci: deciWonSchema.nonnegative() }),
);

/** The balance did not cover an order (or the member has no account); nothing was taken. */
export const PointDebitRejected = defineEvent(
  'PointDebitRejected',
  1,
  z.object({
    userId,
    kind: paymentKindSchema,
    orderId,
    amountDeci: deciWonSchema.positive(),
    balanceDeci: deciWonSchema.nonnegative(),
    reason: z.enum(['INSUFFICIENT_POINTS', 'NO_ACCOUNT']),
  }),
);

/**
 * Points were added: an approved top-up (`source: topup`, `referenceId` = `topup-<id>`), a refund
 * (`source: refund`, `referenceId` = the refund id of RefundRequested) or a referrer's share of a
 * referred member's payment (`source: referral`, `referenceId` = `referral-<payment>`). Applied once per referenceId.
 */
export const PointCredited = defineEvent(
  'PointCredited',
  1,
  z.object({
    userId,
    source: z.enum(['topup', 'refund', 'referral']),
    referenceId: z.string().min(1),
    amountDeci: deciWonSchema.positive(),
    balanceAfterDeci: deciWonSchema.nonnegative(),
  }),
);

/** A member asked to top up by bank transfer; the scheduler expires it at `expiresAt` if still pending. Aggregate: `topup-<id>`. */
export const TopUpRequested = defineEvent(
  'TopUpRequested',
  1,
  z.object({
    topUpId,
    userId,
    pointDeci: deciWonSchema.positive(),
    /** What the member transfers: the points, plus 10 % for a tax invoice when the fee setting is on. */
    transferDeci: deciWonSchema.positive(),
    receiptType: receiptTypeSchema,
    expiresAt: z.iso.datetime({ offset: true }),
  }),
);

/** An operator confirmed the transfer; PointCredited follows in the same transaction. */
export const TopUpApproved = defineEvent('TopUpApproved', 1, z.object({ topUpId, userId, pointDeci: deciWonSchema.positive() }));

/**
 * An operator refused the request, or (`canceledByMember`, issue 40) its member withdrew it while it
 * was pending: either way it ended unpaid and nothing was credited.
 */
export const TopUpRejected = defineEvent('TopUpRejected', 1, z.object({ topUpId, userId, canceledByMember: z.boolean().optional() }));

/** The request was still pending when its 3 hours ran out. */
export const TopUpExpired = defineEvent('TopUpExpired', 1, z.object({ topUpId, userId }));

/**
 * An admin adjusted a balance by hand (issue 12): a ledger entry of its own kind, never an edit of
 * the balance. `amountDeci` is signed (never 0); the balance never goes below zero.
 */
export const PointAdjusted = defineEvent(
  'PointAdjusted',
  1,
  z.object({
    userId,
    adjustmentId: z.string().min(1),
    amountDeci: z.number().int().refine((n) => n !== 0, { message: 'must not be 0' }),
    balanceAfterDeci: deciWonSchema.nonnegative(),
    reason: z.string().min(1).max(200),
    operatorId: z.string().min(1),
  }),
);

export const walletEvents = [PointDebited, PointDebitRejected, PointCredited, TopUpRequested, TopUpApproved, TopUpRejected, TopUpExpired, PointAdjusted] as const;
