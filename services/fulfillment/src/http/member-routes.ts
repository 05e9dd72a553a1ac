import type { Express, Request, Response } from 'express';
import { parseInput } from '@smm/platform';
import type { FulfillmentDeps } from '../use-cases/context.ts';
import { askCancel, askRefill, productFlags, refillStatus } from '../use-cases/refill-cancel.ts';
import { actorOf } from './actor.ts';
import { idParam } from './schemas.ts';

/** Members' (and resellers', through the BFF) refill and cancel of their own orders. */
export function memberRoutes(app: Express, deps: FulfillmentDeps, after: { canceled: () => void }): void {
  app.post('/orders/:id/refill', async (req: Request, res: Response) => {
    // 201 for a refill forwarded now; 200 with `existing` for the one still open (not forwarded again).
    const { created, view } = await askRefill(deps, parseInput(idParam, req.params).id, actorOf(req));
    res.status(created ? 201 : 200).json(view);
  });
  app.get('/refills/:id', async (req: Request, res: Response) => {
    res.json(await refillStatus(deps, parseInput(idParam, req.params).id, actorOf(req)));
  });
  app.post('/orders/:id/cancel', async (req: Request, res: Response) => {
    const result = await askCancel(deps, parseInput(idParam, req.params).id, actorOf(req));
    if (result.cancel === 'canceled') after.canceled();
    res.json(result);
  });
  app.get('/products/flags', async (_req: Request, res: Response) => {
    res.json(await productFlags(deps));
  });
}
