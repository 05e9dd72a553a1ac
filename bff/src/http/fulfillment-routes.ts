import type { Request, Response, Router } from 'express';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { callContext } from './context.ts';
import { idParam } from './query.ts';
import { apiKeyAccess } from './reseller-routes.ts';
import type { Reseller } from '../reseller/reseller.ts';

const orderNotFound = () => new HttpError(404, 'ORDER_NOT_FOUND', messages.orderNotFound);
const refillNotFound = () => new HttpError(404, 'REFILL_NOT_FOUND', '리필 요청을 찾을 수 없습니다.');

/**
 * Members' refill and cancel of their own orders (order history buttons), and the same for
 * resellers' programs with the `api-key` header (`/api/refill/:wId`, `/api/cancel/:wId`).
 * Fulfillment checks ownership, the product's refill/cancel flags and the order's status.
 */
export function fulfillmentRoutes(router: Router, verifier: TokenVerifier, fulfillment: ServiceClient, reseller: Reseller): void {
  const keyed = apiKeyAccess(reseller);
  for (const action of ['refill', 'cancel'] as const) {
    router.post(`/${action}/:wId`, keyed, async (req: Request, res: Response) => {
      const id = idParam(req.params.wId, orderNotFound);
      relay(res, await fulfillment.call(callContext(req), 'POST', `/orders/${id}/${action}`));
    });
  }
  router.get('/refill/:id', keyed, async (req: Request, res: Response) => {
    const id = idParam(req.params.id, refillNotFound);
    relay(res, await fulfillment.call(callContext(req), 'GET', `/refills/${id}`));
  });
  const member = access(verifier, 'notGuest');
  for (const action of ['refill', 'cancel'] as const) {
    router.post(`/service/orders/:id/${action}`, member, async (req: Request, res: Response) => {
      const id = idParam(req.params.id, orderNotFound);
      relay(res, await fulfillment.call(callContext(req), 'POST', `/orders/${id}/${action}`));
    });
  }
  // Which products take refill / cancel, so the history shows only buttons that can work.
  router.get('/service/fulfillment-flags', member, async (req: Request, res: Response) => {
    if (!fulfillment.configured) return void res.json([]);
    relay(res, await fulfillment.call(callContext(req), 'GET', '/products/flags'));
  });
  router.get('/service/refills/:id', member, async (req: Request, res: Response) => {
    const id = idParam(req.params.id, refillNotFound);
    relay(res, await fulfillment.call(callContext(req), 'GET', `/refills/${id}`));
  });
}
