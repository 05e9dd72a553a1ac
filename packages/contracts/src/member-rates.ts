/**
 * Rates per member (issue 40, 회원별 할인·리셀러 단가): an operator gives one member a discount in
 * percent on every product, or per product a discount or a unit price of its own. The one rule
 * that turns a catalogue price into the member's price, shared by the order service (which charges
 * it), the BFF (which shows it on every screen and API) and the web app. Plain module, no zod.
 *
 * - Units: prices are integer deci-won (0.1 won) like every price (money.ts); a member's unit price
 *   is an integer of them, and a charge is that × quantity × runs, exact as always.
 * - Precedence: a rate for the product beats the member's rate for every product.
 * - Rounding: a discount's price is rounded **up** to the next 0.1 won, so a discount never gives
 *   more than the percent the operator set (10 % off 2.5 won is 2.25 → 2.3 won).
 * - A rate only ever lowers a price: the member pays the lower of the catalogue price and the
 *   rate's (a custom price above the catalogue's changes nothing until the catalogue rises).
 * - Never below 0: a discount is 1–99 %, a custom price at least 0.1 won, so a priced product
 *   never becomes free.
 */

/** One member's rate: for every product (`serviceId` null, discount only) or for one product. */
export type MemberRate = {
  serviceId: number | null;
  /** Whole percent off, 1–99; or null when the rate is a unit price of its own. */
  discountPercent: number | null;
  /** The member's own unit price (deci-won, ≥ 1); or null when the rate is a discount. */
  unitPriceDeci: number | null;
};

export const memberRateLimits = {
  minPercent: 1,
  maxPercent: 99,
  minUnitPriceDeci: 1,
  /** The catalogue's own ceiling (catalog's maxUnitPriceDeci): 1,000,000 won. */
  maxUnitPriceDeci: 10_000_000,
} as const;

/** `base × (100 − percent) / 100`, rounded up to a whole deci-won, in integers only. */
export function discountedDeci(baseDeci: number, percent: number): number {
  const scaled = baseDeci * (100 - percent);
  const whole = (scaled - (scaled % 100)) / 100;
  return scaled % 100 > 0 ? whole + 1 : whole;
}

/** The rate that applies to a product: its own, else the member's rate for every product. */
export function rateFor<R extends MemberRate>(rates: readonly R[], serviceId: number): R | undefined {
  return rates.find((r) => r.serviceId === serviceId) ?? rates.find((r) => r.serviceId === null);
}

/** A catalogue unit price (deci-won) as this rate prices it for the member; never above the catalogue's. */
export function ratedUnitPriceDeci(baseDeci: number, rate: MemberRate | undefined): number {
  if (!rate) return baseDeci;
  if (rate.unitPriceDeci !== null) return Math.min(baseDeci, rate.unitPriceDeci);
  if (rate.discountPercent !== null) return Math.min(baseDeci, discountedDeci(baseDeci, rate.discountPercent));
  return baseDeci;
}

/** The member's unit price (deci-won) of a product whose catalogue price is `baseDeci`. */
export function memberUnitPriceDeci(baseDeci: number, rates: readonly MemberRate[], serviceId: number): number {
  return ratedUnitPriceDeci(baseDeci, rateFor(rates, serviceId));
}
