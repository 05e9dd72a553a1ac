import { errorBody, productFlags as productFlagList, refillView, v2OrderNotReady } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import { parseOrderIds, v2Errors } from '../domain/panel-v2.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import type { CallContext, ServiceClient } from '../upstream/service-client.ts';

type Fields = Record<string, unknown>;
type V2Answer = { status: number; body: unknown; retryAfter?: number };

/** Refill, refill status and cancel texts resellers' tools expect (English, as the rest of v2). */
export const v2FulfillmentErrors = {
  refillUnavailable: 'Refill is not available for this order',
  incorrectRefillId: 'Incorrect refill ID',
  cancelUnavailable: 'Cancel is not available for this order',
  /** A repeated cancel of an order whose cancel the provider was already asked for (issue 41). */
  cancelAlreadyRequested: 'Cancel already requested for this order',
  orderAlreadyCanceled: 'Order is already canceled',
  /** The provider's answer was not clear: the request is kept for the panel's operators. */
  providerUnclear: 'The provider did not answer clearly; the request is kept and will be checked',
  /** An order accepted a moment ago, not taken in by fulfillment yet: nothing was done, ask again. */
  orderNotReady: v2OrderNotReady,
} as const;

/** Fulfillment's codes that say more than "not available" (a repeated cancel is not a refusal). */
const specificErrors: Readonly<Record<string, string>> = {
  CANCEL_ALREADY_REQUESTED: v2FulfillmentErrors.cancelAlreadyRequested,
  ORDER_ALREADY_CANCELED: v2FulfillmentErrors.orderAlreadyCanceled,
  PROVIDER_UNCLEAR: v2FulfillmentErrors.providerUnclear,
  ORDER_NOT_READY: v2FulfillmentErrors.orderNotReady,
};

const text = (body: Fields, name: string): string | undefined => {
  const v = body[name];
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
};

/** One fulfillment answer in v2 words: the value, or the error text for this id. */
function errorText(status: number, code: unknown, fallback: string): string {
  if (status === 404) return code === 'REFILL_NOT_FOUND' ? v2FulfillmentErrors.incorrectRefillId : v2Errors.incorrectOrderId;
  if (typeof code === 'string' && specificErrors[code] !== undefined) return specificErrors[code];
  if (status === 409) return fallback;
  throw new HttpError(status >= 500 ? 502 : status, 'SERVICE_FAILED', v2Errors.temporary);
}
const codeOf = (body: unknown) => errorBody.safeParse(body).data?.code;

/** Ids of `orders` / `refills` (1–100, comma-separated) or of the single field; null when absent or malformed. */
function idsOf(body: Fields, many: string, one: string): { ids: number[]; bad: string[]; single: boolean } | null {
  const list = text(body, many);
  if (list !== undefined) {
    const parsed = parseOrderIds(list);
    return parsed === null ? null : { ...parsed, single: false };
  }
  const single = text(body, one);
  if (single === undefined) return null;
  return /^[1-9]\d{0,14}$/.test(single) ? { ids: [Number(single)], bad: [], single: true } : { ids: [], bad: [single], single: true };
}

/** How many of a list's orders are asked about at once: a list of 100 at a slow provider is not 100 waits in a row. */
const LIST_CONCURRENCY = 8;

/** `ask` for every id, at most LIST_CONCURRENCY at a time; the answers in the ids' order. */
async function eachOf<T>(ids: readonly number[], ask: (id: number) => Promise<T>): Promise<T[]> {
  const answers = new Array<T>(ids.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < ids.length; i = next++) answers[i] = await ask(ids[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(LIST_CONCURRENCY, ids.length) }, worker));
  return answers;
}

/**
 * API v2 `refill` (`order` or `orders`), `refill_status` (`refill` or `refills`) and `cancel`
 * (`orders`, or `order`), answered in the shapes panels use. Returns undefined for other actions.
 */
export async function v2FulfillmentAction(action: string | undefined, body: Fields, member: CallContext, fulfillment: ServiceClient): Promise<V2Answer | undefined> {
  if (action === 'refill') {
    const ids = idsOf(body, 'orders', 'order');
    if (ids === null) return { status: 400, body: { error: v2Errors.incorrectRequest } };
    const results: Array<{ order: number | string; refill: string | { error: string } }> = await eachOf(ids.ids, async (id) => {
      const answer = await fulfillment.call(member, 'POST', `/orders/${id}/refill`);
      // 201: forwarded now; 200: the order's refill still open, answered again (never forwarded twice).
      const ok = answer.status === 201 || answer.status === 200;
      return { order: id, refill: ok ? String(readAnswer(member, answer, refillView).refill) : { error: errorText(answer.status, codeOf(answer.body), v2FulfillmentErrors.refillUnavailable) } };
    });
    for (const bad of ids.bad) results.push({ order: bad, refill: { error: v2Errors.incorrectOrderId } });
    if (!ids.single) return { status: 200, body: results.map((r) => (typeof r.refill === 'string' ? { order: r.order, refill: Number(r.refill) } : r)) };
    const only = results[0]!;
    if (typeof only.refill === 'string') return { status: 200, body: { refill: only.refill } };
    if (only.refill.error === v2FulfillmentErrors.orderNotReady) return { status: 503, body: only.refill, retryAfter: 1 };
    return { status: only.refill.error === v2Errors.incorrectOrderId ? 404 : only.refill.error === v2FulfillmentErrors.providerUnclear ? 502 : 409, body: only.refill };
  }
  if (action === 'refill_status') {
    const ids = idsOf(body, 'refills', 'refill');
    if (ids === null) return { status: 400, body: { error: v2Errors.incorrectRequest } };
    const results: Array<{ refill: number | string; status: string | { error: string } }> = await eachOf(ids.ids, async (id) => {
      const answer = await fulfillment.call(member, 'GET', `/refills/${id}`);
      return { refill: id, status: answer.status === 200 ? readAnswer(member, answer, refillView).status : { error: errorText(answer.status, codeOf(answer.body), v2FulfillmentErrors.incorrectRefillId) } };
    });
    for (const bad of ids.bad) results.push({ refill: bad, status: { error: v2FulfillmentErrors.incorrectRefillId } });
    if (!ids.single) return { status: 200, body: results };
    const only = results[0]!;
    return typeof only.status === 'string' ? { status: 200, body: { status: only.status } } : { status: 404, body: only.status };
  }
  if (action === 'cancel') {
    const ids = idsOf(body, 'orders', 'order');
    if (ids === null) return { status: 400, body: { error: v2Errors.incorrectRequest } };
    const results: Array<{ order: number | string; cancel: 1 | { error: string } }> = await eachOf(ids.ids, async (id) => {
      const answer = await fulfillment.call(member, 'POST', `/orders/${id}/cancel`);
      return { order: id, cancel: answer.status === 200 ? 1 : { error: errorText(answer.status, codeOf(answer.body), v2FulfillmentErrors.cancelUnavailable) } };
    });
    for (const bad of ids.bad) results.push({ order: bad, cancel: { error: v2Errors.incorrectOrderId } });
    return { status: 200, body: results };
  }
  return undefined;
}

/** Refill and cancel flags per product for `services`; none (false) when fulfillment cannot say. */
export async function productFlags(member: CallContext, fulfillment: ServiceClient): Promise<Map<number, { refill: boolean; cancel: boolean }>> {
  const flags = new Map<number, { refill: boolean; cancel: boolean }>();
  if (!fulfillment.configured) return flags;
  const answer = await fulfillment.call(member, 'GET', '/products/flags').catch(() => undefined);
  if (answer?.status !== 200) return flags;
  // Flags only add to `services`: an answer off the contract is logged and the list still served.
  const parsed = productFlagList.safeParse(answer.body);
  if (!parsed.success) {
    member.log.error({ route: answer.route, issues: parsed.error.issues.slice(0, 5) }, 'service answered off its contract');
    return flags;
  }
  for (const f of parsed.data) flags.set(f.productId, { refill: f.refill, cancel: f.cancel });
  return flags;
}
