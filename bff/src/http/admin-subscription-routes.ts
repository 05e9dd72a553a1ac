import type { Request, Response, Router } from 'express';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { callContext } from './context.ts';
import { idParam, listQuery } from './query.ts';

const notFound = () => new HttpError(404, 'SUBSCRIPTION_NOT_FOUND', messages.subscriptionNotFound);
const body = (req: Request): Record<string, unknown> => (typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {});

/**
 * Operators run subscriptions of products no provider runs (issue 40): the list, a new post (its
 * order), pause and resume (staff too, area `orders`), and an end with the refund of the posts not
 * done (expired or canceled: admins only, never their own — the order service's rules).
 */
export function adminSubscriptionRoutes(router: Router, verifier: TokenVerifier, order: ServiceClient): void {
  const operator = access(verifier, 'operator');

  router.get('/admin/orders/subscriptions', operator, async (req: Request, res: Response) => {
    const query = listQuery(req, [{ name: 'state', pattern: /^(active|paused|completed|expired|canceled)$/ }]);
    relay(res, await order.call(callContext(req), 'GET', '/admin/subscriptions', { query }));
  });

  router.post('/admin/orders/subscriptions/:id/posts', operator, async (req: Request, res: Response) => {
    const id = idParam(req.params.id, notFound);
    const { post, link } = body(req);
    relay(res, await order.call(callContext(req), 'POST', `/admin/subscriptions/${id}/posts`, { body: { post, link } }));
  });

  for (const action of ['pause', 'resume'] as const) {
    router.post(`/admin/orders/subscriptions/:id/${action}`, operator, async (req: Request, res: Response) => {
      const id = idParam(req.params.id, notFound);
      relay(res, await order.call(callContext(req), 'POST', `/admin/subscriptions/${id}/${action}`));
    });
  }

  router.post('/admin/orders/subscriptions/:id/end', operator, async (req: Request, res: Response) => {
    const id = idParam(req.params.id, notFound);
    relay(res, await order.call(callContext(req), 'POST', `/admin/subscriptions/${id}/end`, { body: { state: body(req).state } }));
  });
}
