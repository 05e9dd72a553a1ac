import type { Express, Request, Response } from 'express';
import { parseInput } from '@smm/platform';
import type { FulfillmentDeps } from '../use-cases/context.ts';
import { forwardsOfOrders, ordersOfProvider, providerNames } from '../use-cases/order-forwards.ts';
import { operatorOnly } from './actor.ts';
import { orderForwardIds, providerOrderQuery } from './schemas.ts';

/**
 * The operators' order list (issue 12) reads forwarding through these: the state and provider's
 * order id of a page of orders (one batched lookup), the orders forwarded to a provider (the
 * provider filter) and the providers' names. Mounted before the admin-only lock of /admin.
 */
export function orderForwardRoutes(app: Express, deps: FulfillmentDeps): void {
  app.get('/admin/order-forwards', operatorOnly, async (req: Request, res: Response) => {
    res.json({ items: await forwardsOfOrders(deps, parseInput(orderForwardIds, req.query).ids) });
  });
  app.get('/admin/order-forwards/search', operatorOnly, async (req: Request, res: Response) => {
    res.json(await ordersOfProvider(deps, parseInput(providerOrderQuery, req.query)));
  });
  app.get('/admin/order-forwards/providers', operatorOnly, async (_req: Request, res: Response) => {
    res.json(await providerNames(deps));
  });
}
