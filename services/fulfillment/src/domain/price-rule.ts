import type { Decimal } from './decimal.ts';

/** How a mapped product is priced from its provider's rate. */
export type PriceRule = { kind: 'markup'; percent: number } | { kind: 'fixed'; unitPriceDeci: number };

/**
 * The provider's cost of one unit in deci-won, rounded up so a price built on it never sells
 * below cost. API v2 rates are per 1000 units in the provider's currency; `wonDeciPerUnit` is
 * the operators' exchange rate (deci-won per one unit of that currency; 10 for KRW).
 */
export function unitCostDeci(ratePer1000: Decimal, wonDeciPerUnit: number): number {
  const numerator = ratePer1000.units * BigInt(wonDeciPerUnit);
  const denominator = 1000n * 10n ** BigInt(ratePer1000.scale);
  const cost = (numerator + denominator - 1n) / denominator;
  if (cost > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('cost out of range');
  return Number(cost);
}

export type PriceVerdict = { ok: true; unitPriceDeci: number } | { ok: false; code: 'BELOW_COST'; unitPriceDeci: number; costDeci: number };

/**
 * Our unit price under a rule: markup rounds up to a whole deci-won; a fixed price below the
 * provider's cost is refused unless the operator said so (`allowBelowCost`). A price is at least 1.
 */
export function priceFor(rule: PriceRule, costDeci: number, allowBelowCost: boolean): PriceVerdict {
  const unitPriceDeci =
    rule.kind === 'markup' ? Math.max(1, Math.floor((costDeci * (100 + rule.percent) + 99) / 100)) : rule.unitPriceDeci;
  if (unitPriceDeci < costDeci && !allowBelowCost) return { ok: false, code: 'BELOW_COST', unitPriceDeci, costDeci };
  return { ok: true, unitPriceDeci };
}
