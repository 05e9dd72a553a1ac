import type { Express, Request, Response } from 'express';
import { parseInput } from '@smm/platform';
import type { FulfillmentDeps } from '../use-cases/context.ts';
import { getForward, listForwards, resolveReview } from '../use-cases/review.ts';
import { actorOf, operatorOnly } from './actor.ts';
import { forwardListQuery, idParam, reviewAction } from './schemas.ts';

/**
 * Operators' view of forwarding: the queues (review, manual, …) and review decisions. Admin or
 * staff (issue 12: staff settle the review queue too); mounted before the admin-only lock of /admin.
 */
export function forwardRoutes(app: Express, deps: FulfillmentDeps, after: { resolved: () => void }): void {
  app.get('/admin/forwards', operatorOnly, async (req: Request, res: Response) => {
    res.json(await listForwards(deps, parseInput(forwardListQuery, req.query)));
  });
  app.get('/admin/forwards/:id', operatorOnly, async (req: Request, res: Response) => {
    res.json(await getForward(deps, parseInput(idParam, req.params).id));
  });
  app.post('/admin/forwards/:id/review', operatorOnly, async (req: Request, res: Response) => {
    const view = await resolveReview(deps, parseInput(idParam, req.params).id, parseInput(reviewAction, req.body ?? {}), actorOf(req).userId, req.caller);
    after.resolved();
    res.json(view);
  });
}
