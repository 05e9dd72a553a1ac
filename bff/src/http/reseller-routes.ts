import type { NextFunction, Request, Response, Router } from 'express';
import { randomUUID } from 'node:crypto';
import { type PlaceOrderRequest, anyOrderView, placedOrder, placementIdPrefix } from '@smm/contracts/http';
import { HttpError, parseInput } from '@smm/platform';
import { apiStatus, remainsOf, v2Errors } from '../domain/panel-v2.ts';
import { messages } from '../messages.ts';
import { Idempotency, type StoredAnswer, requestHash } from '../reseller/idempotency.ts';
import { RateLimited } from '../reseller/rate-limiter.ts';
import type { Reseller } from '../reseller/reseller.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import { relay } from '../upstream/relay.ts';
import { type CallContext, type ServiceAnswer, type ServiceClient, ServiceUnavailable } from '../upstream/service-client.ts';
import { callContext, callerOf } from './context.ts';
import { type WebOrderBody, orderBody } from './money-schemas.ts';
import { idParam } from './query.ts';

const orderNotFound = () => new HttpError(404, 'ORDER_NOT_FOUND', messages.orderNotFound);

/** Resolves the `api-key` header to its member and counts the request against the member's limit. */
export function apiKeyAccess(reseller: Reseller) {
  // Named: the OpenAPI test finds the public routes by this guard.
  return async function apiKeyGuard(req: Request, res: Response, next: NextFunction) {
    try {
      req.member = await reseller.keys.resolve(callContext(req), req.get('api-key'), (caller) =>
        reseller.limiter.take(caller.userId, (error) => req.log.warn({ err: error.message }, 'rate limit not counted: redis unavailable')),
      );
      next();
    } catch (error) {
      if (error instanceof RateLimited) res.setHeader('retry-after', String(error.retryAfterSeconds));
      next(error);
    }
  };
}

/** The client's Idempotency-Key and the hash of its request, as the order service keeps them. */
export type PlacementKey = { key: string; hash: string };

/** What the order service is asked to place: an API caller's order, or the web's with the price it showed. */
export type PlacedOrder = Partial<WebOrderBody>;

/** A service's answer that says for certain what became of the placement (anything but a temporary failure). */
function definite(answer: ServiceAnswer): boolean {
  if (answer.status < 500) return true;
  const code = (answer.body as { code?: unknown } | null)?.code;
  // Given up (nothing charged, a late debit is refunded) or refused by the site's service check.
  return answer.status === 503 && (code === 'PAYMENT_TIMEOUT' || code === 'SERVICE_CHECK');
}

/**
 * How long the BFF keeps asking a service that cannot be reached what became of a placement: long
 * enough for the order service to be restarted on a loaded machine (10–20 s seen in the recovery
 * tests). Past it the answer is a 503 whose truth is unknown — the one case left where a caller
 * without an Idempotency-Key may be charged behind an error.
 */
export const placementLookupMs = 45_000;

/**
 * Places an order and waits for its payment (the order service waits up to `waitMs`). Answers the
 * order id only for a paid order (201); anything else is the service's error answer as it came:
 * 402 INSUFFICIENT_POINTS, 503 PAYMENT_TIMEOUT (given up, nothing charged), the validation errors.
 *
 * Every placement goes under a request key chosen here before the call — the client's
 * Idempotency-Key, or else a fresh placement id — which the order service keeps on the order. When
 * the call fails in transport (the service died or did not answer) or with a temporary error, the
 * order may still have been stored and be charged: the BFF then asks the order service what became
 * of the placement under that key and answers the truth — the order if it was paid, the refusal if
 * not, 503 only when nothing was placed (or the service cannot be reached for `placementLookupMs`).
 */
export async function placeOrder(
  order: ServiceClient,
  ctx: CallContext,
  input: PlacedOrder,
  source: 'web' | 'api',
  waitMs: number,
  request?: PlacementKey,
): Promise<StoredAnswer & { orderId?: number }> {
  const query = new URLSearchParams({ waitMs: String(waitMs) });
  const placement = request ?? { key: `${placementIdPrefix}${randomUUID()}`, hash: 'placement-id' };
  // The service may wait waitMs for the payment on top of its own work: the timeout leaves room for both.
  const body: PlaceOrderRequest = { ...input, source, request: placement };
  let answer: ServiceAnswer | undefined;
  try {
    answer = await order.call(ctx, 'POST', '/orders', { query, body, timeoutMs: waitMs + order.timeoutMs });
  } catch (error) {
    // Not configured: nothing was sent, nothing to ask.
    if (!(error instanceof ServiceUnavailable) || !order.configured) throw error;
  }
  if (!answer || !definite(answer)) {
    ctx.log.warn({ status: answer?.status ?? null }, 'placement call failed; asking the order service what became of it');
    answer = await lookUpPlacement(order, ctx, placement, waitMs);
  }
  if (answer.status === 201) {
    const placed = readAnswer(ctx, answer, placedOrder);
    return { status: 201, body: answer.body, orderId: placed.order.id };
  }
  return { status: answer.status, body: answer.body };
}

/**
 * Asks the order service what became of the placement under `placement` (retrying while it cannot
 * be reached or answers with a temporary error): its definite answer, or a 503 — nothing was placed,
 * or no answer could be had.
 */
async function lookUpPlacement(order: ServiceClient, ctx: CallContext, placement: PlacementKey, waitMs: number): Promise<ServiceAnswer> {
  const deadline = Date.now() + placementLookupMs;
  const query = new URLSearchParams({ waitMs: String(waitMs) });
  for (;;) {
    let answer: ServiceAnswer | undefined;
    try {
      answer = await order.call(ctx, 'POST', '/orders/placement', { query, body: { request: placement }, timeoutMs: waitMs + order.timeoutMs });
    } catch (error) {
      if (!(error instanceof ServiceUnavailable)) throw error;
    }
    if (answer?.status === 404) {
      // PLACEMENT_NOT_FOUND: nothing placed under the key (or given up: nothing charged), the client may simply retry.
      if ((answer.body as { code?: unknown } | null)?.code !== 'PLACEMENT_NOT_FOUND') ctx.log.error({ body: answer.body }, 'the order service cannot look placements up');
      return { status: 503, headers: answer.headers, body: { code: 'SERVICE_UNAVAILABLE', message: messages.serviceUnavailable } };
    }
    if (answer && definite(answer)) return answer;
    if (Date.now() >= deadline) {
      ctx.log.error({ status: answer?.status ?? null, key: placement.key }, 'what became of a placement is unknown: the order service could not be asked');
      throw new HttpError(503, 'SERVICE_UNAVAILABLE', messages.serviceUnavailable);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** A placement the wallet did not confirm in time: nothing was placed, so the client may simply retry. */
export function retryLater(res: Response, answer: StoredAnswer): void {
  const body = answer.body as { code?: unknown; error?: unknown } | null;
  if (answer.status === 503 && (body?.code === 'PAYMENT_TIMEOUT' || body?.error === v2Errors.paymentTimeout)) res.setHeader('retry-after', '1');
}

/**
 * Runs `work` once per Idempotency-Key (when the client sent one) and writes the answer, replayed
 * ones marked with `idempotent-replayed: true`.
 */
export async function withIdempotency(
  req: Request,
  res: Response,
  idempotency: Idempotency,
  route: string,
  fingerprint: unknown,
  work: (request?: PlacementKey) => Promise<StoredAnswer>,
  fieldKey?: string,
): Promise<StoredAnswer> {
  // The header wins; `fieldKey` is the same key sent as a body field (API v2 `idempotency_key`).
  const key = req.get('idempotency-key') ?? fieldKey;
  if (key === undefined) return work();
  if (!Idempotency.validKey(key)) throw new HttpError(400, 'IDEMPOTENCY_KEY_INVALID', messages.idempotencyKeyInvalid);
  const hash = requestHash(route, fingerprint);
  // The work gets the key too: the order service keeps it with the order, so a retry after an
  // answer this BFF never stored (a timeout, a crash: nothing remembered here) finds that order.
  const result = await idempotency.run(callerOf(req).userId, key, hash, () => work({ key, hash }));
  if (result.replayed) res.setHeader('idempotent-replayed', 'true');
  return result;
}

/**
 * Spec §7's public reseller API under /api: the member's API key in the `api-key` header.
 * GET /services, POST /order → {wId}, GET /status/:wId → {status, remains}. Errors `{code, message}`.
 */
export function resellerRoutes(router: Router, reseller: Reseller): void {
  const keyed = apiKeyAccess(reseller);

  router.get('/services', keyed, async (req: Request, res: Response) => {
    const ctx = callContext(req);
    // The member's own prices (issue 40), as they will be charged.
    const items = await reseller.prices.price(ctx, await reseller.catalogue.items(ctx));
    res.json(items.map((s) => ({ id: s.id, text: s.text, min: s.min, max: s.max, point: s.point, platform: s.platform, category: s.category, enableAuto: s.enableAuto })));
  });

  router.post('/order', keyed, async (req: Request, res: Response) => {
    const { serviceId, link, amount } = parseInput(orderBody, req.body ?? {});
    const input = { serviceId, link, amount };
    const answer = await withIdempotency(req, res, reseller.idempotency, 'POST /api/order', input, async (request) => {
      const placed = await placeOrder(reseller.order, callContext(req), input, 'api', reseller.orderWaitMs, request);
      return placed.orderId === undefined ? placed : { status: placed.status, body: { wId: placed.orderId } };
    });
    retryLater(res, answer);
    res.status(answer.status).json(answer.body);
  });

  router.get('/status/:wId', keyed, async (req: Request, res: Response) => {
    const id = idParam(req.params.wId, orderNotFound);
    const ctx = callContext(req);
    const answer = await reseller.order.call(ctx, 'GET', `/orders/${id}`);
    if (answer.status !== 200) return relay(res, answer);
    const view = readAnswer(ctx, answer, anyOrderView);
    res.json({ status: apiStatus(view), remains: remainsOf(view) });
  });
}
