import type { Express, Request, Response } from 'express';
import type { OrderCountsBody } from '@smm/contracts/http';
import type { OrderDeps } from '../use-cases/context.ts';
import { orderCounts } from '../use-cases/order-counts.ts';

/** GET /admin/dashboard (under adminRoutes' /admin lock): paid orders per status. */
export function adminDashboardRoutes(app: Express, deps: OrderDeps): void {
  app.get('/admin/dashboard', async (_req: Request, res: Response) => {
    res.json({ byStatus: await orderCounts(deps.store) } satisfies OrderCountsBody);
  });
}
