import { z } from 'zod';
import { serviceView } from './catalog.ts';
import { isoDateText } from './common.ts';

/**
 * Rates per member (issue 40): the order service's answers (`GET /rates`, `PUT /admin/rates/:userId`,
 * `DELETE /admin/rates/:userId/:scope`), relayed by the BFF to the console. The pricing rule itself
 * is `member-rates.ts` (one module for the order service, the BFF and the web app).
 */
export const memberRateView = z.looseObject({
  /** null: the member's rate for every product (a discount). */
  serviceId: z.number().int().nullable(),
  /** The product's name in order's catalogue replica (null for every product, or a product since removed). */
  serviceText: z.string().nullable(),
  discountPercent: z.number().int().nullable(),
  unitPriceDeci: z.number().int().nullable(),
  /** `unitPriceDeci` in won (one decimal), for screens. */
  unitPrice: z.number().nullable(),
  updatedAt: isoDateText,
  /** The operator who set it. */
  updatedBy: z.string(),
});
export type MemberRateViewBody = z.infer<typeof memberRateView>;

export const memberRateList = z.looseObject({ userId: z.string(), items: z.array(memberRateView) });
export type MemberRateListBody = z.infer<typeof memberRateList>;

/**
 * `PUT /admin/rates/:userId`: one rate, set or replaced. `serviceId` absent or null = every product
 * (discount only); exactly one of `discountPercent` (whole percent 1–99) and `unitPrice` (won, one
 * decimal at most). Values pass as sent: the order service answers each wrong one in Korean.
 */
export const memberRateRequest = z.looseObject({ serviceId: z.unknown().optional(), discountPercent: z.unknown().optional(), unitPrice: z.unknown().optional() });
export type MemberRateRequest = z.infer<typeof memberRateRequest>;

/**
 * The BFF's `GET /api/service/services` for a signed-in member: the catalogue's service view
 * priced with the member's rates — `point`/`unitPriceDeci` are what the member pays, and where a
 * rate changed them the catalogue's price stays beside as `listPoint`/`listUnitPriceDeci`.
 */
export const memberServiceView = serviceView.extend({ listPoint: z.number().optional(), listUnitPriceDeci: z.number().int().optional() });
export type MemberServiceViewBody = z.infer<typeof memberServiceView>;
