import { z } from 'zod';
import { page } from './common.ts';
import { providerView } from './fulfillment.ts';
import { orderView } from './order.ts';
import { adminTopUpView, depositView, moneySummary } from './wallet.ts';

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
