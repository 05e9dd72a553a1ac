import type { Express, Request, Response } from 'express';
import { parseInput } from '@smm/platform';
import type { FulfillmentDeps } from '../use-cases/context.ts';
import { getForward, listForwards, resolveReview } from '../use-cases/review.ts';
import { actorOf } from './actor.ts';
import { forwardListQuery, idParam, reviewAction } from './schemas.ts';

/** Operators' view of forwarding: the queues (review, manual, …) and review decisions. Behind adminOnly. */
export function forwardRoutes(app: Express, deps: FulfillmentDeps, after: { resolved: () => void }): void {
  app.get('/admin/forwards', async (req: Request, res: Response) => {
    res.json(await listForwards(deps, parseInput(forwardListQuery, req.query)));
  });
  app.get('/admin/forwards/:id', async (req: Request, res: Response) => {
    res.json(await getForward(deps, parseInput(idParam, req.params).id));
  });
  app.post('/admin/forwards/:id/review', async (req: Request, res: Response) => {
    const view = await resolveReview(deps, parseInput(idParam, req.params).id, parseInput(reviewAction, req.body ?? {}), actorOf(req).userId, req.caller);
    after.resolved();
    res.json(view);
  });
}
