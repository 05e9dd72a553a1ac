import { AutoOrderStatus, OrderStatus, type ServiceType, type SubscriptionState, orderStatusApiNames, subscriptionStateApiNames } from '@smm/contracts';

/**
 * The de-facto panel-standard API v2 (what resellers' tools speak): English error texts, money as
 * strings in won, English status names. Pure translation rules; the HTTP side lives in http/.
 */
export const v2Errors = {
  invalidKey: 'Invalid API key',
  incorrectRequest: 'Incorrect request',
  incorrectOrderId: 'Incorrect order ID',
  incorrectServiceId: 'Incorrect service ID',
  incorrectLink: 'Incorrect link',
  incorrectQuantity: 'Incorrect quantity',
  incorrectComments: 'Incorrect comments: one comment per line, 300 characters at most',
  incorrectUsernames: 'Incorrect usernames: one username per line, no duplicates',
  incorrectUsername: 'Incorrect username',
  incorrectMin: 'Incorrect min',
  incorrectMax: 'Incorrect max',
  minAboveMax: 'Min must not be greater than max',
  incorrectPosts: 'Incorrect posts: 1 to 1000 whole posts',
  incorrectDelay: 'Incorrect delay: 0, 5, 10, 15, 30, 60 or 90 minutes',
  incorrectExpiry: 'Incorrect expiry: a date from today up to a year ahead (yyyy-mm-dd or dd/mm/yyyy)',
  notEnoughFunds: 'Not enough funds on balance',
  incorrectRuns: 'Incorrect runs: 2 to 1000 whole runs',
  incorrectInterval: 'Incorrect interval: 60 to 43200 whole minutes',
  incorrectText: 'Incorrect text: control, direction or invisible-only characters',
  dripFeedUnsupported: 'Drip-feed is not supported for this service',
  serviceUnavailable: 'Service is not available for ordering',
  maintenance: 'Ordering is paused for maintenance',
  rateLimited: 'Too many requests',
  idempotencyReused: 'Idempotency-Key was already used with another request',
  /** Says "in progress" on purpose: a reselling panel reads it as "outcome unknown, ask again with the same key". */
  idempotencyInProgress: 'A request with this Idempotency-Key is still in progress, try again',
  paymentTimeout: 'Order not placed: payment was not confirmed in time, try again',
  temporary: 'Temporary error, try again later',
} as const;

/** Exact won string with one decimal digit ("12345.0", "2.5") from deci-won. */
export function wonString(deci: number): string {
  const sign = deci < 0 ? '-' : '';
  const abs = Math.abs(deci);
  return `${sign}${Math.trunc(abs / 10)}.${abs % 10}`;
}

/** Panel rate: the price of 1,000 units, exact (unit price in deci-won × 1,000); a Package's is the price of one package. */
export function ratePer1000(unitPriceDeci: number, type: ServiceType = 'default'): string {
  return wonString(type === 'package' ? unitPriceDeci : unitPriceDeci * 1000);
}

/** Types whose `add` needs a quantity: the others count their lines (comments, usernames) or are one package. */
export function typeTakesQuantity(type: ServiceType): boolean {
  return type === 'default' || type === 'comment-likes';
}

/** Quantity limits in the words resellers' tools show. */
export const quantityBelowMin = (min: number | undefined) => (min === undefined ? v2Errors.incorrectQuantity : `Quantity less than minimal ${min}`);
export const quantityAboveMax = (max: number | undefined) => (max === undefined ? v2Errors.incorrectQuantity : `Quantity more than maximal ${max}`);

/**
 * The order service's error code → the v2 error text and HTTP status. Codes not listed (a service
 * failure) become a temporary error with the service's own status.
 */
export function v2ErrorFor(code: string, limits: { min?: number | undefined; max?: number | undefined }): { error: string; status: number } | undefined {
  switch (code) {
    case 'SERVICE_REQUIRED':
    case 'SERVICE_NOT_FOUND':
      return { error: v2Errors.incorrectServiceId, status: 400 };
    case 'LINK_REQUIRED':
      return { error: v2Errors.incorrectLink, status: 400 };
    case 'COMMENTS_REQUIRED':
    case 'COMMENT_TOO_LONG':
      return { error: v2Errors.incorrectComments, status: 400 };
    case 'USERNAMES_REQUIRED':
    case 'USERNAMES_DUPLICATE':
      return { error: v2Errors.incorrectUsernames, status: 400 };
    case 'USERNAME_REQUIRED':
    case 'USERNAME_INVALID':
      return { error: v2Errors.incorrectUsername, status: 400 };
    case 'SUBSCRIPTION_MIN_INVALID':
      return { error: v2Errors.incorrectMin, status: 400 };
    case 'SUBSCRIPTION_MAX_INVALID':
      return { error: v2Errors.incorrectMax, status: 400 };
    case 'SUBSCRIPTION_MIN_ABOVE_MAX':
      return { error: v2Errors.minAboveMax, status: 400 };
    case 'SUBSCRIPTION_POSTS_INVALID':
      return { error: v2Errors.incorrectPosts, status: 400 };
    case 'SUBSCRIPTION_DELAY_INVALID':
      return { error: v2Errors.incorrectDelay, status: 400 };
    case 'SUBSCRIPTION_EXPIRY_INVALID':
      return { error: v2Errors.incorrectExpiry, status: 400 };
    case 'AMOUNT_INVALID':
    case 'PRICE_OUT_OF_RANGE':
      return { error: v2Errors.incorrectQuantity, status: 400 };
    case 'AMOUNT_BELOW_MIN':
      return { error: quantityBelowMin(limits.min), status: 400 };
    case 'AMOUNT_ABOVE_MAX':
      return { error: quantityAboveMax(limits.max), status: 400 };
    case 'RUNS_TOO_FEW':
    case 'RUNS_NOT_INTEGER':
    case 'RUNS_TOO_MANY':
      return { error: v2Errors.incorrectRuns, status: 400 };
    case 'INTERVAL_TOO_SHORT':
    case 'INTERVAL_NOT_INTEGER':
    case 'INTERVAL_TOO_LONG':
      return { error: v2Errors.incorrectInterval, status: 400 };
    case 'AUTO_NOT_SUPPORTED':
      return { error: v2Errors.dripFeedUnsupported, status: 400 };
    case 'INSUFFICIENT_POINTS':
      return { error: v2Errors.notEnoughFunds, status: 402 };
    case 'PAYMENT_TIMEOUT':
      return { error: v2Errors.paymentTimeout, status: 503 };
    case 'IDEMPOTENCY_KEY_REUSED':
      return { error: v2Errors.idempotencyReused, status: 409 };
    case 'SERVICE_READ_ONLY':
      return { error: v2Errors.serviceUnavailable, status: 403 };
    case 'SERVICE_CHECK':
      return { error: v2Errors.maintenance, status: 503 };
    case 'ORDER_NOT_FOUND':
      return { error: v2Errors.incorrectOrderId, status: 404 };
    default:
      return undefined;
  }
}

/** What the order service shows of one order or auto order (the fields v2 reads). */
export type OrderView = {
  id: number;
  kind?: 'order' | 'auto';
  status?: number | null;
  pointDeci?: number;
  startCount?: number | null;
  remains?: number | null;
  amount?: number;
  runs?: number;
  completed?: number;
  payment?: string;
  /** A subscription's part (order service `autoOrderView`); null or absent otherwise. */
  subscription?: { state: SubscriptionState; posts: number; postsDone: number; expiry: string | null; username: string; min: number; max: number; delay: number; orders?: number[] | undefined } | null | undefined;
};

const autoStatusNames: Readonly<Record<number, string>> = {
  [AutoOrderStatus.values.ACTIVE]: 'In progress',
  [AutoOrderStatus.values.COMPLETED]: 'Completed',
  [AutoOrderStatus.values.CANCELED]: 'Canceled',
  [AutoOrderStatus.values.PARTIAL]: 'Partial',
};

/** An order whose payment is not settled (awaiting) reads Pending; a refused one Canceled. */
export function statusName(view: OrderView): string {
  if (view.payment === 'rejected') return orderStatusApiNames[OrderStatus.values.CANCELED]!;
  if (view.status === null || view.status === undefined) return orderStatusApiNames[OrderStatus.values.PENDING]!;
  if (view.kind === 'auto') return autoStatusNames[view.status] ?? 'Pending';
  return orderStatusApiNames[view.status] ?? 'Pending';
}

/**
 * The status number of the plain reseller API (spec §4): `null` while the payment is settling, and
 * canceled (5) for an order whose payment was refused or given up — it will never run.
 */
export function apiStatus(view: OrderView): number | null {
  if (view.payment === 'rejected') return OrderStatus.values.CANCELED;
  return view.status ?? null;
}

/** Units still to deliver: an order's own count; for an auto order, the runs not yet placed. */
export function remainsOf(view: OrderView): number {
  if (view.kind === 'auto' && typeof view.runs === 'number' && typeof view.amount === 'number') {
    return Math.max(0, view.runs - (view.completed ?? 0)) * view.amount;
  }
  return typeof view.remains === 'number' ? view.remains : (view.amount ?? 0);
}

/** A subscription's v2 status: Active, Paused, Completed, Expired or Canceled (Pending until paid, Canceled when refused). */
export function subscriptionStatusName(view: OrderView): string {
  if (view.payment === 'rejected') return subscriptionStateApiNames.canceled;
  if (view.status === null || view.status === undefined || !view.subscription) return orderStatusApiNames[OrderStatus.values.PENDING]!;
  return subscriptionStateApiNames[view.subscription.state];
}

type V2Status = { charge: string; start_count: string; status: string; remains: string; currency: 'KRW' };
/** A subscription's extra fields in the standard's `status` answer: expiry, posts done, the posts' orders. */
type V2SubscriptionStatus = V2Status & { expiry: string | null; posts: string; orders: number[]; username: string; min: string; max: string; delay: string };

/**
 * One order's v2 status answer: `{charge, start_count, status, remains, currency}`; a subscription's
 * also `{expiry, posts, orders, username, min, max, delay}` (posts = posts done; remains = posts left).
 */
export function v2Status(view: OrderView): V2Status | V2SubscriptionStatus {
  const startCount = typeof view.startCount === 'number' && view.startCount >= 0 ? view.startCount : 0;
  const sub = view.kind === 'auto' ? view.subscription : null;
  if (sub) {
    return {
      charge: wonString(view.pointDeci ?? 0),
      start_count: '0',
      status: subscriptionStatusName(view),
      remains: String(Math.max(0, sub.posts - sub.postsDone)),
      currency: 'KRW',
      expiry: sub.expiry,
      posts: String(sub.postsDone),
      orders: sub.orders ?? [],
      username: sub.username,
      min: String(sub.min),
      max: String(sub.max),
      delay: String(sub.delay),
    };
  }
  return { charge: wonString(view.pointDeci ?? 0), start_count: String(startCount), status: statusName(view), remains: String(remainsOf(view)), currency: 'KRW' };
}

/** `orders=1,2,3` → ids in the order given, duplicates dropped; null when any item is not an id. */
export function parseOrderIds(text: string, max = 100): { ids: number[]; bad: string[] } | null {
  const parts = text.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 0 || parts.length > max) return null;
  const ids: number[] = [];
  const bad: string[] = [];
  for (const part of parts) {
    if (/^[1-9]\d{0,14}$/.test(part)) {
      const id = Number(part);
      if (!ids.includes(id)) ids.push(id);
    } else if (!bad.includes(part)) bad.push(part);
  }
  return { ids, bad };
}
