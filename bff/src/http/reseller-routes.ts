import type { NextFunction, Request, Response, Router } from 'express';
import { HttpError, parseInput } from '@smm/platform';
import { type OrderView, remainsOf } from '../domain/panel-v2.ts';
import { messages } from '../messages.ts';
import { Idempotency, type StoredAnswer, requestHash } from '../reseller/idempotency.ts';
import { RateLimited } from '../reseller/rate-limiter.ts';
import type { Reseller } from '../reseller/reseller.ts';
import { isErrorBody, relay } from '../upstream/relay.ts';
import type { CallContext } from '../upstream/service-client.ts';
import { callContext, callerOf } from './context.ts';
import { type OrderBody, orderBody } from './money-schemas.ts';
import { idParam } from './query.ts';

const orderNotFound = () => new HttpError(404, 'ORDER_NOT_FOUND', messages.orderNotFound);

/** Resolves the `api-key` header to its member and counts the request against the member's limit. */
function apiKeyAccess(reseller: Reseller) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const caller = await reseller.keys.resolve(callContext(req), req.get('api-key'));
      req.caller = caller;
      await reseller.limiter.take(caller.userId, (error) => req.log.warn({ err: error.message }, 'rate limit not counted: redis unavailable'));
      next();
    } catch (error) {
      if (error instanceof RateLimited) res.setHeader('retry-after', String(error.retryAfterSeconds));
      next(error);
    }
  };
}

export type PlacedOrder = Partial<OrderBody>;

/**
 * Places an order for an API caller: the order service's answer, reduced to what the public API
 * shows. `{ id }` of an accepted (201) or still-paying (202) order; errors as the service gave them.
 */
export async function placeApiOrder(reseller: Reseller, ctx: CallContext, input: PlacedOrder): Promise<StoredAnswer & { orderId?: number }> {
  const query = new URLSearchParams({ waitMs: String(reseller.orderWaitMs) });
  const answer = await reseller.order.call(ctx, 'POST', '/orders', { query, body: { ...input, source: 'api' }, timeoutMs: reseller.orderWaitMs + reseller.order.timeoutMs });
  if (answer.status === 201 || answer.status === 202) {
    const order = (answer.body as { order?: { id?: unknown } } | null)?.order;
    if (typeof order?.id !== 'number') throw new HttpError(502, 'SERVICE_FAILED', messages.upstreamFailed);
    return { status: answer.status, body: answer.body, orderId: order.id };
  }
  if (answer.status >= 500 && !isErrorBody(answer.body)) throw new HttpError(502, 'SERVICE_FAILED', messages.upstreamFailed);
  return { status: answer.status, body: answer.body };
}

/**
 * Runs `work` once per Idempotency-Key (when the client sent one) and writes the answer, replayed
 * ones marked with `idempotent-replayed: true`.
 */
export async function withIdempotency(req: Request, res: Response, reseller: Reseller, route: string, fingerprint: unknown, work: () => Promise<StoredAnswer>): Promise<StoredAnswer> {
  const key = req.get('idempotency-key');
  if (key === undefined) return work();
  if (!Idempotency.validKey(key)) throw new HttpError(400, 'IDEMPOTENCY_KEY_INVALID', messages.idempotencyKeyInvalid);
  const result = await reseller.idempotency.run(callerOf(req).userId, key, requestHash(route, fingerprint), work);
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
    const items = await reseller.catalogue.items(callContext(req));
    res.json(items.map((s) => ({ id: s.id, text: s.text, min: s.min, max: s.max, point: s.point, platform: s.platform, category: s.category, enableAuto: s.enableAuto })));
  });

  router.post('/order', keyed, async (req: Request, res: Response) => {
    const { serviceId, link, amount } = parseInput(orderBody, req.body ?? {});
    const input = { serviceId, link, amount };
    const answer = await withIdempotency(req, res, reseller, 'POST /api/order', input, async () => {
      const placed = await placeApiOrder(reseller, callContext(req), input);
      return placed.orderId === undefined ? placed : { status: placed.status, body: { wId: placed.orderId } };
    });
    res.status(answer.status).json(answer.body);
  });

  router.get('/status/:wId', keyed, async (req: Request, res: Response) => {
    const id = idParam(req.params.wId, orderNotFound);
    const answer = await reseller.order.call(callContext(req), 'GET', `/orders/${id}`);
    if (answer.status !== 200) return relay(res, answer);
    const view = answer.body as OrderView;
    res.json({ status: view.status ?? null, remains: remainsOf(view) });
  });
}
