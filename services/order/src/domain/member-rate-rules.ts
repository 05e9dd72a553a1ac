import { type MemberRate, memberRateLimits, parseWon } from '@smm/contracts';
import { type Problem, problem } from './problem.ts';
import { rateMessages } from './rate-messages.ts';
import { toNumber } from './place-order-rules.ts';

/** A rate as an operator sent it (the console's form or a forged request): anything at all. */
export type RateRequest = { serviceId?: unknown; discountPercent?: unknown; unitPrice?: unknown };

export type RateVerdict = { ok: true; rate: MemberRate } | { ok: false; problem: Problem };

const refused = (code: string, message: string): RateVerdict => ({ ok: false, problem: problem(code, message) });
const given = (value: unknown) => value !== undefined && value !== null && value !== '';

/**
 * Reads one rate (issue 40): `serviceId` absent/null = every product, else a positive whole number
 * (whether the product exists is the caller's check against the replica); exactly one of a whole
 * percent 1–99 and a unit price in won (one decimal, 0.1 … 1,000,000). A rate for every product
 * is a discount only: one price for unlike products would be a mistake, not a tier.
 */
export function readRate(request: RateRequest): RateVerdict {
  let serviceId: number | null = null;
  if (given(request.serviceId)) {
    const id = toNumber(request.serviceId);
    if (!Number.isSafeInteger(id) || id <= 0) return refused('RATE_SERVICE_UNKNOWN', rateMessages.serviceUnknown);
    serviceId = id;
  }
  const percentGiven = given(request.discountPercent);
  const priceGiven = given(request.unitPrice);
  if (percentGiven === priceGiven) return refused('RATE_KIND_REQUIRED', rateMessages.kindRequired);
  if (percentGiven) {
    const percent = toNumber(request.discountPercent);
    if (!Number.isInteger(percent) || percent < memberRateLimits.minPercent || percent > memberRateLimits.maxPercent) return refused('RATE_PERCENT_INVALID', rateMessages.percentInvalid);
    return { ok: true, rate: { serviceId, discountPercent: percent, unitPriceDeci: null } };
  }
  if (serviceId === null) return refused('RATE_PRICE_NEEDS_SERVICE', rateMessages.priceNeedsService);
  const price = request.unitPrice;
  const deci = typeof price === 'number' || typeof price === 'string' ? parseWon(price) : undefined;
  if (deci === undefined || deci < memberRateLimits.minUnitPriceDeci || deci > memberRateLimits.maxUnitPriceDeci) return refused('RATE_PRICE_INVALID', rateMessages.priceInvalid);
  return { ok: true, rate: { serviceId, discountPercent: null, unitPriceDeci: deci } };
}

/** A rate's scope in a path: `all` (every product) or a product id; undefined when neither. */
export function readScope(scope: string): number | null | undefined {
  if (scope === 'all') return null;
  return /^[1-9]\d{0,14}$/.test(scope) ? Number(scope) : undefined;
}
