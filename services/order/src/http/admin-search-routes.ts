import type { Express, Request, Response } from 'express';
import { z } from 'zod';
import type { OrderPageBody } from '@smm/contracts/http';
import { parseInput } from '@smm/platform';
import type { OrderDeps } from '../use-cases/context.ts';
import { searchOrders } from '../use-cases/search-orders.ts';
import { orderListQuery } from './schemas.ts';

const searchQuery = orderListQuery.extend({
  id: z.string().regex(/^[1-9]\d{0,14}$/).transform(Number).optional(),
  serviceId: z.string().regex(/^[1-9]\d{0,9}$/).transform(Number).optional(),
  link: z.string().trim().min(1).max(500).optional(),
});

/** GET /admin/orders/search (under adminRoutes' /admin lock): member, status, product, link. */
export function adminSearchRoutes(app: Express, deps: OrderDeps): void {
  app.get('/admin/orders/search', async (req: Request, res: Response) => {
    const query = parseInput(searchQuery, req.query);
    res.json((await searchOrders(deps.store, query, query)) satisfies OrderPageBody);
  });
}
