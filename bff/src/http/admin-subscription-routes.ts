import type { Request, Response, Router } from 'express';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { autoOrderPage } from '@smm/contracts/http';
import { readAnswer } from '../upstream/read-answer.ts';
import { relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { withLoginIds } from './admin-login-ids.ts';
import { callContext } from './context.ts';
import { idParam, listQuery } from './query.ts';

const notFound = () => new HttpError(404, 'SUBSCRIPTION_NOT_FOUND', messages.subscriptionNotFound);
const body = (req: Request): Record<string, unknown> => (typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {});

/**
 * Operators run subscriptions of products no provider runs (issue 40): the list, a new post (its
 * order), pause and resume (staff too, area `orders`), and an end with the refund of the posts not
 * done (expired or canceled: admins only, never their own — the order service's rules).
 */
export function adminSubscriptionRoutes(router: Router, verifier: TokenVerifier, auth: ServiceClient, order: ServiceClient): void {
  const operator = access(verifier, 'operator');

  router.get('/admin/orders/subscriptions', operator, async (req: Request, res: Response) => {
    const ctx = callContext(req);
    const query = listQuery(req, [{ name: 'state', pattern: /^(active|paused|completed|expired|canceled)$/ }]);
    const answer = await order.call(ctx, 'GET', '/admin/subscriptions', { query });
    if (answer.status !== 200) return relay(res, answer);
    // The member's login id beside each one, as the other console lists show members.
    const page = readAnswer(ctx, answer, autoOrderPage);
    res.json({ ...page, items: await withLoginIds(auth, ctx, page.items) });
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
