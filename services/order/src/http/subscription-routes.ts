import type { Express, Request, Response } from 'express';
import { z } from 'zod';
import { subscriptionStates } from '@smm/contracts';
import { badRequest, conflict, forbidden, notFound, parseInput } from '@smm/platform';
import { messages } from '../domain/messages.ts';
import type { OrderDeps } from '../use-cases/context.ts';
import { autoOrderView } from '../use-cases/views.ts';
import { type SubscriptionResult, endSubscriptionNow, pauseSubscription, recordSubscriptionPost } from '../use-cases/subscriptions.ts';
import { operatorOnly, originOf } from './actor.ts';
import { idParam, pagingQuery } from './schemas.ts';

/** A post: its number (optional, must be the next one) and the post's address (optional). */
const postBody = z.object({
  post: z.number({ error: messages.subscriptionPostInvalid }).int({ error: messages.subscriptionPostInvalid }).positive({ error: messages.subscriptionPostInvalid }).optional(),
  link: z.string({ error: messages.subscriptionLinkInvalid }).trim().min(1, { error: messages.subscriptionLinkInvalid }).max(2048, { error: messages.subscriptionLinkInvalid }).optional(),
});
/** How it ends, and (fulfillment, for a member's cancel) whose it must be. */
const endBody = z.object({
  state: z.enum(['expired', 'canceled'], { error: messages.subscriptionEndInvalid }),
  userId: z.string().min(1).optional(),
});
const listQuery = pagingQuery.extend({ state: z.enum(subscriptionStates).optional(), userId: z.string().min(1).optional() });

function answer<T>(res: Response, result: SubscriptionResult<T>): void {
  if (result.ok) {
    res.json(result.value);
    return;
  }
  const { code, message } = result.problem;
  if (result.kind === 'not-found') throw notFound(message, code);
  if (result.kind === 'invalid') throw badRequest(message, undefined, code);
  if (result.kind === 'forbidden') throw forbidden(message, code);
  throw conflict(message, code);
}

/**
 * Subscriptions run by hand (a product no provider runs: the operator is the provider) and by
 * fulfillment (a provider's status): operators and fulfillment's credential only.
 */
export function subscriptionRoutes(app: Express, deps: OrderDeps): void {
  app.use('/admin/subscriptions', operatorOnly);

  app.get('/admin/subscriptions', async (req: Request, res: Response) => {
    const query = parseInput(listQuery, req.query);
    const filter: Record<string, unknown> = { payment: 'paid', subscription: { $type: 'object' } };
    if (query.state !== undefined) filter['subscription.state'] = query.state;
    if (query.userId !== undefined) filter.userId = query.userId;
    res.json(await deps.store.repository.autoOrderPage(filter, query, autoOrderView));
  });

  app.post('/admin/subscriptions/:id/posts', async (req: Request, res: Response) => {
    const { id } = parseInput(idParam, req.params);
    const body = parseInput(postBody, req.body ?? {});
    const result = await recordSubscriptionPost(deps, originOf(req), id, body, req.caller);
    if (result.ok) res.status(201);
    answer(res, result);
  });

  for (const [path, to] of [['pause', 'paused'], ['resume', 'active']] as const) {
    app.post(`/admin/subscriptions/:id/${path}`, async (req: Request, res: Response) => {
      const { id } = parseInput(idParam, req.params);
      answer(res, await pauseSubscription(deps, originOf(req), id, to, req.caller));
    });
  }

  app.post('/admin/subscriptions/:id/end', async (req: Request, res: Response) => {
    const { id } = parseInput(idParam, req.params);
    const body = parseInput(endBody, req.body ?? {});
    answer(res, await endSubscriptionNow(deps, originOf(req), id, body.state, req.caller, body.userId));
  });
}
