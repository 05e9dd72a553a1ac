import { z } from 'zod';
import { receiptTypes } from '../statuses.ts';
import { isoDateText, itemList, page, requestBody, requestText } from './common.ts';

/** Wallet service answers (services/wallet/src/use-cases/views.ts and http/*.ts). */

/** `GET /accounts/:userId`: `point` in won (one decimal at most), `pointDeci` exact. */
export const balance = z.looseObject({ userId: z.string(), point: z.number(), pointDeci: z.number().int() });
export type BalanceBody = z.infer<typeof balance>;

/** A top-up as its member sees it (`topUpView`); the member's history leaves out `expiresAt`. */
export const topUpView = z.looseObject({
  id: z.number().int(),
  createdAt: isoDateText,
  point: z.number(),
  pointDeci: z.number().int(),
  transferAmount: z.number(),
  transferDeci: z.number().int(),
  receiptType: z.enum(receiptTypes),
  status: z.number().int(),
  responseAt: isoDateText.nullable(),
  expiresAt: isoDateText.optional(),
  /** Issue 40: who ended a failed request — an operator's rejection, its expiry, or its member's cancel. */
  endedBy: z.enum(['operator', 'expiry', 'member']).nullable().optional(),
  /** The operator's reason for a rejection, shown to the member. */
  rejectReason: z.string().nullable().optional(),
});
export type TopUpViewBody = z.infer<typeof topUpView>;

/** What operators see of a top-up (`adminTopUpView`). */
export const adminTopUpView = topUpView.extend({
  expiresAt: isoDateText,
  userId: z.string(),
  name: z.string(),
  paymentType: z.number().int(),
  feeValue: z.record(z.string(), z.string()),
  rejectReason: z.string().nullable(),
  receiptIssuedAt: isoDateText.nullable(),
  /** Issue 39: expired with no deposit (not rejected by an operator). */
  expired: z.boolean().optional(),
  /**
   * Issue 39 (the operators' list): how many of the member's requests of the last 7 days expired
   * unpaid; at 3 the member is held (new requests refused).
   */
  memberExpiredRecently: z.number().int().optional(),
});
export type AdminTopUpViewBody = z.infer<typeof adminTopUpView>;

/** `GET /top-ups`, `GET /admin/top-ups`. */
export const topUpPage = page(topUpView);
export const adminTopUpPage = page(adminTopUpView);
export type TopUpPageBody = z.infer<typeof topUpPage>;
export type AdminTopUpPageBody = z.infer<typeof adminTopUpPage>;

/** A bank deposit and its matching (deposit-routes.ts `depositView`). */
export const depositView = z.looseObject({
  id: z.string(),
  source: z.enum(['bank', 'manual']),
  transactionId: z.string(),
  depositorName: z.string(),
  amount: z.number(),
  amountDeci: z.number().int(),
  depositedAt: isoDateText,
  receivedAt: isoDateText,
  status: z.enum(['matched', 'unmatched', 'ambiguous', 'attached']),
  topUpId: z.number().int().nullable(),
  userId: z.string().nullable(),
  candidates: z.array(z.number().int()),
  resolvedAt: isoDateText.nullable(),
});
export type DepositViewBody = z.infer<typeof depositView>;

/** `GET /admin/deposits`. */
export const depositPage = page(depositView);
export type DepositPageBody = z.infer<typeof depositPage>;

/** `GET /admin/dashboard?days=`: per Korean day, sales, refunds and approved top-ups; the pending top-ups. */
export const moneySummary = z.looseObject({
  days: z.array(z.looseObject({ date: z.string(), salesDeci: z.number().int(), refundsDeci: z.number().int(), topUpsDeci: z.number().int(), topUpCount: z.number().int() })),
  pendingTopUps: z.number().int(),
});
export type MoneySummaryBody = z.infer<typeof moneySummary>;

/** One line of a member's ledger (`GET /admin/accounts/:userId/ledger`, `ledgerView`). */
export const ledgerEntry = z.looseObject({
  seq: z.number().int(),
  createdAt: isoDateText,
  deltaDeci: z.number().int(),
  balanceAfterDeci: z.number().int(),
  kind: z.enum(['debit', 'credit']),
  source: z.string(),
  referenceId: z.string(),
});
export type LedgerEntryBody = z.infer<typeof ledgerEntry>;
export const ledgerPage = page(ledgerEntry);
export type LedgerPageBody = z.infer<typeof ledgerPage>;

/** An operator's balance adjustment with its reason (`POST` answers 201 with one, `GET` lists up to 100). */
export const adjustmentView = z.looseObject({
  id: z.string(),
  userId: z.string(),
  amount: z.number(),
  amountDeci: z.number().int(),
  balanceAfterDeci: z.number().int(),
  reason: z.string(),
  operatorId: z.string(),
  createdAt: isoDateText,
});
export type AdjustmentViewBody = z.infer<typeof adjustmentView>;
export const adjustmentList = itemList(adjustmentView);
export type AdjustmentListBody = z.infer<typeof adjustmentList>;

/** One credit or reversal of referral earnings; `member` is the referred login id, masked. */
export const referralEarning = z.looseObject({
  createdAt: isoDateText,
  kind: z.enum(['credit', 'reversal']),
  member: z.string(),
  amountDeci: z.number().int(),
  point: z.number(),
  sourceDeci: z.number().int(),
  ratePercent: z.number(),
  shortfallDeci: z.number().int(),
});
export type ReferralEarningBody = z.infer<typeof referralEarning>;

/** `GET /referrals/:userId`: the referred members (login ids masked), net earnings, the paged history. */
export const referralSummary = z.looseObject({
  ratePercent: z.number(),
  memberCount: z.number().int(),
  members: z.array(z.looseObject({ loginId: z.string(), registeredAt: isoDateText })),
  earningsDeci: z.number().int(),
  earnings: z.number(),
  history: page(referralEarning),
});
export type ReferralSummaryBody = z.infer<typeof referralSummary>;

/*
 * Requests (see common.ts): what the BFF sends and wallet reads.
 */

/** A form field as a scalar; wallet's rules read it (another type reads as absent). */
const scalar = () => z.union([z.string(), z.number(), z.boolean(), z.null()]).optional().catch(undefined);

/**
 * `POST /top-ups`: the depositor's name, the amount in won and the receipt (`feeType` none, cash
 * or fee, and its details). Wallet checks every rule in its order with its own messages; a receipt
 * type of another type reads as no known one (refused), never as "none".
 */
export const topUpRequest = requestBody({
  name: scalar(),
  point: scalar(),
  feeType: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional().catch(''),
  feeValue: z.record(z.string(), scalar()).nullish().catch(null),
});
export type TopUpRequest = z.input<typeof topUpRequest>;

/** `POST /admin/top-ups/:id/reject`: an optional reason (wallet trims it and allows 200 characters). */
export const rejectTopUpRequest = requestBody({ reason: z.string().nullish().catch(undefined) });
export type RejectTopUpRequest = z.input<typeof rejectTopUpRequest>;

/** `POST /admin/accounts/:userId/adjustments`: won (negative takes away) and the reason, checked by wallet. */
export const adjustmentRequest = requestBody({ amount: z.number().optional().catch(undefined), reason: requestText() });
export type AdjustmentRequest = z.input<typeof adjustmentRequest>;

/**
 * `POST /admin/deposits`: a deposit an operator enters by hand — the depositor, whole won, and when
 * (absent or null: now). Wallet checks each in its order; a time of another type reads as text no
 * date parses from (refused), never as absent (now).
 */
export const manualDepositRequest = requestBody({
  depositorName: requestText(),
  amount: z.number().optional().catch(undefined),
  depositedAt: z.string().nullish().catch(''),
});
export type ManualDepositRequest = z.input<typeof manualDepositRequest>;

/**
 * `POST /admin/deposits/:id/attach`: exactly one of a top-up request or a member. A value of another
 * type stays present and refused (NaN, empty text), so a wrong `topUpId` beside a `userId` is still
 * "both named" and never attaches to the member.
 */
export const attachDepositRequest = requestBody({
  topUpId: z.number().nullish().catch(Number.NaN),
  userId: z.string().nullish().catch(''),
});
export type AttachDepositRequest = z.input<typeof attachDepositRequest>;
