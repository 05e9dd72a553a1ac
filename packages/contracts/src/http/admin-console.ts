import { z } from 'zod';
import { adminMemberDetail } from './auth.ts';
import { page, requestBody } from './common.ts';
import { providerView } from './fulfillment.ts';
import { orderPage, orderView } from './order.ts';
import { adjustmentList, adminTopUpPage, adminTopUpView, depositView, ledgerPage, moneySummary } from './wallet.ts';

/**
 * Answers the BFF composes for the operators' console (issue 12) from several services' answers:
 * login ids from auth beside wallet's and order's rows, fulfillment's forwarding beside order's.
 * The BFF states them with `satisfies`; the web app reads their types.
 */

/** Operators read login ids, never internal ids: null for a member auth no longer knows. */
const loginId = z.string().nullable();

/** An order's forwarding as the order list shows it (fulfillment's `/admin/order-forwards`). */
export const forwardingView = z.object({
  state: z.string(),
  providerId: z.number().int().nullable(),
  providerName: z.string().nullable(),
  providerOrderId: z.string().nullable(),
  providerStatus: z.string().nullable(),
});
export type ForwardingViewBody = z.infer<typeof forwardingView>;

/** One row of `GET /api/admin/orders/search`: order's view, the login id and the forwarding (null: none). */
export const adminOrderRow = orderView.extend({ loginId, forwarding: forwardingView.nullable() });
export type AdminOrderRowBody = z.infer<typeof adminOrderRow>;
/**
 * `GET /api/admin/orders/search`: `forwardingUnavailable` when fulfillment did not answer (the rows
 * then carry no forwarding); `scanLimited` when the provider filter stopped reading early.
 */
export const adminOrderSearch = page(adminOrderRow).extend({ forwardingUnavailable: z.literal(true).optional(), scanLimited: z.literal(true).optional() });
export type AdminOrderSearchBody = z.infer<typeof adminOrderSearch>;

/** `GET /api/admin/top-ups`: wallet's operator view with the login id. */
export const adminTopUpRow = adminTopUpView.extend({ loginId });
export type AdminTopUpRowBody = z.infer<typeof adminTopUpRow>;
export const adminTopUpRows = page(adminTopUpRow);
export type AdminTopUpRowsBody = z.infer<typeof adminTopUpRows>;

/** `GET /api/admin/deposits`: wallet's deposits with the login id of an attached or matched member. */
export const adminDepositRow = depositView.extend({ loginId });
export type AdminDepositRowBody = z.infer<typeof adminDepositRow>;
export const adminDepositRows = page(adminDepositRow);
export type AdminDepositRowsBody = z.infer<typeof adminDepositRows>;

/** Events the services' consumers dead-lettered, per consumer group and topic. */
export const deadLetterCounts = z.object({ total: z.number().int(), topics: z.array(z.object({ consumer: z.string(), topic: z.string(), count: z.number().int() })) });
export type DeadLetterCountsBody = z.infer<typeof deadLetterCounts>;

/**
 * `GET /api/admin/dashboard`: wallet's days and pending top-ups, order's paid orders per status,
 * fulfillment's queues (null when it cannot answer) — provider balances and unread notices only for
 * admins (null for staff) — and the dead-letter counts (null for staff or without Kafka).
 */
export const adminDashboard = moneySummary.extend({
  ordersByStatus: z.record(z.string(), z.number().int()),
  fulfillment: z
    .object({
      review: z.number().int(),
      failed: z.number().int(),
      notices: z.number().int().nullable(),
      providers: z.array(providerView.pick({ id: true, name: true, currency: true, balance: true, balanceLow: true, lastError: true }).strict()).nullable(),
    })
    .nullable(),
  deadLetters: deadLetterCounts.nullable(),
});
export type AdminDashboardBody = z.infer<typeof adminDashboard>;

/**
 * `GET /api/admin/members/:userId`: auth's member, wallet's balance (zero before the account opens),
 * the latest ledger lines, adjustments, top-ups and orders — each part null when its service could
 * not answer, so the page shows it missing instead of failing.
 */
export const adminMemberPageView = z.object({
  member: adminMemberDetail,
  balance: z.looseObject({ point: z.number(), pointDeci: z.number().int() }),
  ledger: ledgerPage.nullable(),
  adjustments: adjustmentList.nullable(),
  topUps: adminTopUpPage.nullable(),
  orders: orderPage.nullable(),
});
export type AdminMemberPageViewBody = z.infer<typeof adminMemberPageView>;

/**
 * `POST /api/admin/orders/bulk`: per order asked, whether order took the change; a refusal names
 * order's code and Korean message (or `HTTP_<status>` and the generic message).
 */
export const bulkOrderResult = z.object({
  results: z.array(z.union([z.object({ id: z.number().int(), ok: z.literal(true) }), z.object({ id: z.number().int(), ok: z.literal(false), code: z.string(), message: z.string() })])),
});
export type BulkOrderResultBody = z.infer<typeof bulkOrderResult>;

/**
 * `POST /api/admin/orders/bulk`: up to 100 order ids (the BFF checks them) and one change for all,
 * passed to order as it is (`orderStatusPatchRequest`). Anything but a list of ids reads as none
 * (refused: VALIDATION_FAILED on `ids`).
 */
export const bulkOrderChangeRequest = requestBody({
  ids: z.array(z.unknown()).optional().catch(undefined),
  status: z.unknown().optional(),
  startCount: z.unknown().optional(),
  remains: z.unknown().optional(),
});
export type BulkOrderChangeRequest = z.input<typeof bulkOrderChangeRequest>;
