import { z } from 'zod';
import { isoDateText, page } from './common.ts';

/**
 * The back office's reports (issue 41): each service's own aggregation, and the answers the BFF
 * composes of them for the console (profit, member totals, the dashboard's 처리할 일).
 */

/** order `GET /admin/reports/revenue?by=day|product|member&from&to`: what members paid and got back. */
export const revenueGroup = z.looseObject({ key: z.string(), label: z.string().nullable(), orders: z.number().int(), chargedDeci: z.number().int(), refundedDeci: z.number().int() });
export const revenueReport = z.looseObject({ by: z.string(), groups: z.array(revenueGroup) });
export type RevenueReportBody = z.infer<typeof revenueReport>;

/** fulfillment `GET /admin/reports/cost?by=day|product|provider|member|provider-product&from&to`: what providers charged. */
export const costGroup = z.looseObject({ key: z.string(), orders: z.number().int(), costed: z.number().int(), costDeci: z.number().int() });
export const costReport = z.looseObject({ by: z.string(), groups: z.array(costGroup) });
export type CostReportBody = z.infer<typeof costReport>;

/** order `GET /admin/reports/member-totals?ids=` and `GET /admin/reports/members?sort=`: a member's paid orders. */
export const memberTotals = z.looseObject({ userId: z.string(), orders: z.number().int(), chargedDeci: z.number().int(), refundedDeci: z.number().int() });
export type MemberTotalsBody = z.infer<typeof memberTotals>;
export const memberTotalsList = z.looseObject({ items: z.array(memberTotals) });
export const rankedMemberPage = page(memberTotals);

/** fulfillment `GET /admin/reports/attention`. */
export const fulfillmentAttention = z.looseObject({
  forwards: z.looseObject({ queued: z.number().int(), retrying: z.number().int(), oldestWaitingAt: isoDateText.nullable(), review: z.number().int(), unknown: z.number().int() }),
  providers: z
    .array(
      z.looseObject({
        id: z.number().int(),
        name: z.string(),
        currency: z.string(),
        balance: z.string().nullable(),
        balanceState: z.enum(['negative', 'low', 'ok']).nullable(),
        lastError: z.string().nullable(),
      }),
    )
    .nullable(),
});
export type FulfillmentAttentionBody = z.infer<typeof fulfillmentAttention>;

/** wallet `GET /admin/reports/attention`. */
export const walletAttention = z.looseObject({ deposits: z.looseObject({ unmatched: z.number().int(), ambiguous: z.number().int() }) });

/** BFF `GET /api/admin/reports/profit`: one row per group, money in deci-won. */
export type ProfitRow = {
  key: string;
  label: string;
  orders: number;
  chargedDeci: number;
  refundedDeci: number;
  revenueDeci: number;
  /** Forwards to providers in the group, how many carry a reported charge, and the sum of those charges. */
  forwarded: number;
  costed: number;
  costDeci: number;
  profitDeci: number;
};
export type ProfitReportBody = {
  by: 'day' | 'week' | 'month' | 'product' | 'provider' | 'member';
  from: string;
  to: string;
  rows: ProfitRow[];
  totals: Omit<ProfitRow, 'key' | 'label'>;
};

/** BFF `GET /api/admin/members/ranked`: members ranked by their orders, with login ids. */
export type RankedMemberBody = MemberTotalsBody & { loginId: string | null };
export type RankedMemberPageBody = { items: RankedMemberBody[]; page: number; pageSize: number; hasNext: boolean };

/** One line of the dashboard's 처리할 일: a count (null when its service did not answer) and where to act. */
export type AttentionItem = { key: string; label: string; count: number | null; detail: string | null; href: string; tone: 'ok' | 'warn' | 'danger' };
export type AttentionBody = { items: AttentionItem[] };
