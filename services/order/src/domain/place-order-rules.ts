import { type OrderDetails, type ServiceType, type SubscriptionTerms, autoOrderLimits, chargedUnits, priceDeci, serviceTypeAllowsAuto } from '@smm/contracts';
import { toNumber } from './numbers.ts';
import { typedOrder } from './order-details.ts';
import { messages } from './messages.ts';
import { type Problem, problem } from './problem.ts';
import type { Product } from './product.ts';
import { subscriptionTerms } from './subscription.ts';

/** The order form as the member sent it; numbers may still be anything. */
export type OrderRequest = {
  serviceId?: unknown;
  link?: unknown;
  amount?: unknown;
  runs?: unknown;
  interval?: unknown;
  /**
   * The unit price the member saw (deci-won), when the caller showed one: the order is charged at
   * that price or not placed. Absent (API callers, who see no price first): the replica's price.
   */
  unitPriceDeci?: unknown;
  /** Typed products' fields (service-types.ts), API v2 names: checked by the product's type, ignored by a default product. */
  comments?: unknown;
  usernames?: unknown;
  username?: unknown;
  /** A subscription's fields (service-types.ts), API v2 names. */
  min?: unknown;
  max?: unknown;
  posts?: unknown;
  delay?: unknown;
  expiry?: unknown;
};

/** A request that passed every rule: what gets stored and charged. */
export type ValidOrder = {
  kind: 'order' | 'auto';
  product: Product;
  link: string;
  amount: number;
  /** 0 for a one-off order. */
  runs: number;
  /** Minutes between runs; 0 for a one-off order. */
  interval: number;
  /** The product's type, and what the member gave for it (absent for default products). */
  serviceType: ServiceType;
  details: OrderDetails | undefined;
  /** unit price × amount (a package: × 1): a one-off order's charge, an auto order's share per run (exact). */
  perRunDeci: number;
  /** unit price × amount × max(runs, 1): what the wallet debits. */
  chargeDeci: number;
  /** A subscription (kind 'auto', amount = max, runs = posts, interval 0): its terms. */
  subscription?: SubscriptionTerms;
};

export type Refusal =
  | { kind: 'invalid'; problem: Problem } // 400
  | { kind: 'read-only'; problem: Problem } // 403
  | { kind: 'service-check'; problem: Problem } // 503
  | { kind: 'price-changed'; problem: Problem }; // 409

export type Verdict = { ok: true; order: ValidOrder } | { ok: false; refusal: Refusal };

const invalid = (code: string, message: string): Verdict => ({ ok: false, refusal: { kind: 'invalid', problem: problem(code, message) } });

export { toNumber };

/** Only an absent field (or null) means "not given"; "", " " or -1 are given and wrong. */
const optional = (value: unknown): number => (value === undefined || value === null ? 0 : toNumber(value));

/**
 * Spec §5 "Order", in its order: the site-wide service check first (nothing can be ordered then),
 * 1 product chosen (unknown and hidden products count as not chosen) and not read-only, 2 link,
 * 3 amount ≥ min, 4 amount ≤ max, 5 auto: supported, runs > 1, runs integer, interval ≥ 60,
 * interval integer — and within `autoOrderLimits`' ceilings (runs, minutes between runs). Rule 6 (balance) is the wallet's: it answers with PointDebited or
 * PointDebitRejected.
 */
export function checkOrder(request: OrderRequest, product: Product | null, serviceCheck: boolean, now: Date = new Date()): Verdict {
  if (serviceCheck) return { ok: false, refusal: { kind: 'service-check', problem: problem('SERVICE_CHECK', messages.serviceCheck) } };
  if (!product || !product.visible) return invalid('SERVICE_REQUIRED', messages.serviceRequired);
  if (product.isReadOnly) return { ok: false, refusal: { kind: 'read-only', problem: problem('SERVICE_READ_ONLY', messages.serviceReadOnly) } };
  if (product.type === 'subscriptions') return checkSubscription(request, product, now);

  const link = typeof request.link === 'string' ? request.link.trim() : '';
  if (link === '') return invalid('LINK_REQUIRED', messages.linkRequired);

  // The type's own fields, then the quantity (typed, counted, or a package's fixed one).
  const serviceType = product.type ?? 'default';
  const typed = typedOrder(serviceType, request, product);
  if (!typed.ok) return invalid(typed.problem.code, typed.problem.message);
  const amount = typed.amount;

  const runs = optional(request.runs);
  const interval = optional(request.interval);
  // Anything but 0 counts as "asked for" (NaN and negatives too): a garbled auto-order field must
  // not silently become a one-off order.
  const auto = runs !== 0 || interval !== 0;
  if (auto) {
    // Catalog allows auto orders on default products only; a replica from before that rule is held to it here too.
    if (!product.enableAuto || !serviceTypeAllowsAuto(serviceType)) return invalid('AUTO_NOT_SUPPORTED', messages.autoNotSupported);
    if (!(runs >= autoOrderLimits.minRuns)) return invalid('RUNS_TOO_FEW', messages.runsTooFew);
    if (!Number.isInteger(runs)) return invalid('RUNS_NOT_INTEGER', messages.runsNotInteger);
    if (runs > autoOrderLimits.maxRuns) return invalid('RUNS_TOO_MANY', messages.runsTooMany);
    if (!(interval >= autoOrderLimits.minIntervalMinutes)) return invalid('INTERVAL_TOO_SHORT', messages.intervalTooShort);
    if (!Number.isInteger(interval)) return invalid('INTERVAL_NOT_INTEGER', messages.intervalNotInteger);
    if (interval > autoOrderLimits.maxIntervalMinutes) return invalid('INTERVAL_TOO_LONG', messages.intervalTooLong);
  }

  const priced = priceShown(request, product);
  if (priced) return priced;

  let perRunDeci: number;
  let chargeDeci: number;
  try {
    perRunDeci = priceDeci(product.unitPriceDeci, chargedUnits(serviceType, amount));
    chargeDeci = priceDeci(perRunDeci, auto ? runs : 1);
  } catch {
    return invalid('PRICE_OUT_OF_RANGE', messages.priceOutOfRange);
  }
  return {
    ok: true,
    order: { kind: auto ? 'auto' : 'order', product, serviceType, details: typed.details, link, amount, runs: auto ? runs : 0, interval: auto ? interval : 0, perRunDeci, chargeDeci },
  };
}

/**
 * Spec §5 has the member pay the price the screen showed: if the catalogue changed in between
 * (the screen and this replica may stand on either side of a repricing), nothing is placed.
 */
function priceShown(request: OrderRequest, product: Product): Verdict | null {
  if (request.unitPriceDeci === undefined || request.unitPriceDeci === null) return null;
  const shown = toNumber(request.unitPriceDeci);
  if (!Number.isSafeInteger(shown) || shown < 0) return invalid('PRICE_INVALID', messages.priceInvalid);
  if (shown !== product.unitPriceDeci) return { ok: false, refusal: { kind: 'price-changed', problem: problem('PRICE_CHANGED', messages.priceChanged) } };
  return null;
}

/**
 * A subscription (issue 40): its own fields stand in for the link and quantity rules (the profile is
 * the link); no drip-feed; charged up front for the maximum — unit price × max per post × posts —
 * stored as an auto order whose runs are the posts (amount = max, interval 0: nothing is scheduled).
 */
function checkSubscription(request: OrderRequest, product: Product, now: Date): Verdict {
  const checked = subscriptionTerms(request, product, now);
  if (!checked.ok) return invalid(checked.problem.code, checked.problem.message);
  const terms = checked.terms;
  if (optional(request.runs) !== 0 || optional(request.interval) !== 0) return invalid('AUTO_NOT_SUPPORTED', messages.autoNotSupported);
  const priced = priceShown(request, product);
  if (priced) return priced;
  let perRunDeci: number;
  let chargeDeci: number;
  try {
    perRunDeci = priceDeci(product.unitPriceDeci, terms.max);
    chargeDeci = priceDeci(perRunDeci, terms.posts);
  } catch {
    return invalid('PRICE_OUT_OF_RANGE', messages.priceOutOfRange);
  }
  return {
    ok: true,
    order: { kind: 'auto', product, serviceType: 'subscriptions', details: undefined, link: terms.username, amount: terms.max, runs: terms.posts, interval: 0, perRunDeci, chargeDeci, subscription: terms },
  };
}
