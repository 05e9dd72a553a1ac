import type { Request, Response, Router } from 'express';
import { HttpError, parseInput } from '@smm/platform';
import { messages } from '../messages.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { callContext } from './context.ts';
import { adminOrderPatch } from './money-schemas.ts';
import { idParam, listQuery, statusRule, userIdRule } from './query.ts';

const orderNotFound = () => new HttpError(404, 'ORDER_NOT_FOUND', messages.orderNotFound);
const paymentRule = { name: 'payment', pattern: /^(awaiting|paid|rejected)$/ };

/**
 * Operators' money screens: order status changes with refunds (order) and a member's ledger
 * (wallet); the top-up queue is in admin-top-up-routes.ts. Admin role only; the credential's role admin goes along and the services
 * check it again. Registered before the catalogue admin routes so these paths are not taken for
 * catalogue resources.
 */
export function adminMoneyRoutes(router: Router, verifier: TokenVerifier, order: ServiceClient, wallet: ServiceClient): void {
  const admin = access(verifier, 'admin');

  router.get('/admin/orders', admin, async (req: Request, res: Response) => {
    const query = listQuery(req, [statusRule, userIdRule, paymentRule]);
    relay(res, await order.call(callContext(req), 'GET', '/admin/orders', { query }));
  });
  router.get('/admin/orders/:id', admin, async (req: Request, res: Response) => {
    const id = idParam(req.params.id, orderNotFound);
    relay(res, await order.call(callContext(req), 'GET', `/orders/${id}`));
  });
  // Issue 39: one rule with the bulk change (admin-order-routes.ts), which operators reach too —
  // order decides per change (staff move orders along; refunding changes and one's own orders are refused).
  router.patch('/admin/orders/:id', access(verifier, 'operator'), async (req: Request, res: Response) => {
    const id = idParam(req.params.id, orderNotFound);
    const input = parseInput(adminOrderPatch, req.body ?? {});
    relay(res, await order.call(callContext(req), 'PATCH', `/admin/orders/${id}`, { body: input }));
  });

  router.get('/admin/accounts/:userId/ledger', admin, async (req: Request, res: Response) => {
    const userId = req.params.userId;
    if (typeof userId !== 'string' || !userIdRule.pattern.test(userId)) throw new HttpError(404, 'ACCOUNT_NOT_FOUND', messages.accountNotFound);
    relay(res, await wallet.call(callContext(req), 'GET', `/admin/accounts/${userId}/ledger`, { query: listQuery(req) }));
  });
}
