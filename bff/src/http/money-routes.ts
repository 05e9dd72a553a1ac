import type { Request, Response, Router } from 'express';
import type { TopUpRequest } from '@smm/contracts/http';
import { HttpError, parseInput } from '@smm/platform';
import { messages } from '../messages.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import type { Idempotency } from '../reseller/idempotency.ts';
import { access } from './access.ts';
import { callContext, callerOf } from './context.ts';
import { topUpBody, webOrderBody } from './money-schemas.ts';
import { idParam, listQuery, statusRule } from './query.ts';
import { placeOrder, retryLater, withIdempotency } from './reseller-routes.ts';

export type OrderPlacement = { waitMs: number; idempotency: Idempotency };

const orderNotFound = () => new HttpError(404, 'ORDER_NOT_FOUND', messages.orderNotFound);
const topUpNotFound = () => new HttpError(404, 'TOPUP_NOT_FOUND', messages.topUpNotFound);

/**
 * The member's money (spec §3 order, histories, top-up): the BFF names the member (in its service credential) and
 * passes the order and wallet services' answers on unchanged — their Korean messages are the ones
 * spec §5 lists. Guests (no token) get GUEST_NOT_ALLOWED.
 */
export function moneyRoutes(router: Router, verifier: TokenVerifier, order: ServiceClient, wallet: ServiceClient, placement: OrderPlacement): void {
  const member = access(verifier, 'notGuest');

  // A browser retry (double click, reload, flaky network) with the same Idempotency-Key places once.
  router.post('/service/order', member, async (req: Request, res: Response) => {
    const input = parseInput(webOrderBody, req.body ?? {});
    const answer = await withIdempotency(req, res, placement.idempotency, 'POST /api/service/order', input, (request) =>
      placeOrder(order, callContext(req), input, 'web', placement.waitMs, request),
    );
    retryLater(res, answer);
    res.status(answer.status).json(answer.body);
  });

  router.get('/service/order-history', member, async (req: Request, res: Response) => {
    const query = listQuery(req, [statusRule], { userId: callerOf(req).userId });
    relay(res, await order.call(callContext(req), 'GET', '/orders', { query }));
  });

  router.get('/service/auto-order-history', member, async (req: Request, res: Response) => {
    const query = listQuery(req, [statusRule], { userId: callerOf(req).userId });
    relay(res, await order.call(callContext(req), 'GET', '/auto-orders', { query }));
  });

  router.post('/service/auto-order/:id/cancel', member, async (req: Request, res: Response) => {
    const id = idParam(req.params.id, orderNotFound);
    relay(res, await order.call(callContext(req), 'POST', `/auto-orders/${id}/cancel`));
  });

  router.post('/service/point', member, async (req: Request, res: Response) => {
    const input = parseInput(topUpBody, req.body ?? {});
    relay(res, await wallet.call(callContext(req), 'POST', '/top-ups', { body: input satisfies TopUpRequest }));
  });

  // Issue 40: the member withdraws their own pending top-up request (wallet checks owner and state).
  router.post('/service/point/:id/cancel', member, async (req: Request, res: Response) => {
    const id = idParam(req.params.id, topUpNotFound);
    relay(res, await wallet.call(callContext(req), 'POST', `/top-ups/${id}/cancel`));
  });

  router.get('/service/point-history', member, async (req: Request, res: Response) => {
    const query = listQuery(req, [], { userId: callerOf(req).userId });
    relay(res, await wallet.call(callContext(req), 'GET', '/top-ups', { query }));
  });
}
