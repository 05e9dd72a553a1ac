import type { Express, Request, Response } from 'express';
import { parseInput } from '@smm/platform';
import type { FulfillmentDeps } from '../use-cases/context.ts';
import { actOnRequest, listRequests } from '../use-cases/request-queue.ts';
import { operatorOnly } from './actor.ts';
import { requestAction, requestIdParam, requestListQuery } from './schemas.ts';

/**
 * The refill and cancel request queue (issue 41), admin or staff like the review queue: failed
 * requests with the provider's answer, and the operator's retry or close. Mounted before the
 * admin-only lock of /admin.
 */
export function requestRoutes(app: Express, deps: FulfillmentDeps, after: { changed: () => void }): void {
  app.get('/admin/requests', operatorOnly, async (req: Request, res: Response) => {
    res.json(await listRequests(deps, parseInput(requestListQuery, req.query)));
  });
  app.post('/admin/requests/:id/resolve', operatorOnly, async (req: Request, res: Response) => {
    const view = await actOnRequest(deps, parseInput(requestIdParam, req.params).id, parseInput(requestAction, req.body ?? {}), req.caller);
    after.changed();
    res.json(view);
  });
}
