import type { Express, Request, Response } from 'express';
import { deciToWon } from '@smm/contracts';
import type { AnyOrderViewBody, AutoOrderCancelBody, AutoOrderPageBody, ErrorBody, OrderListBody, OrderPageBody, PlacedOrderBody } from '@smm/contracts/http';
import { HttpError, conflict, notFound, parseInput } from '@smm/platform';
import { messages } from '../domain/messages.ts';
import type { Refusal } from '../domain/place-order-rules.ts';
import { cancelAuto } from '../use-cases/cancel-auto-order.ts';
import type { OrderDeps } from '../use-cases/context.ts';
import { type PlaceOrderResult, answerPlacement, placeOrder } from '../use-cases/place-order.ts';
import { autoOrderHistory, findAnyOrder, findOrders, orderHistory } from '../use-cases/read-orders.ts';
import { actorOf, originOf, ownerFor } from './actor.ts';
import { autoOrderListQuery, idParam, orderListQuery, placeBody, placeQuery, placementLookupRequest } from './schemas.ts';

function refusalError(refusal: Refusal): HttpError {
  const status = { 'service-check': 503, 'read-only': 403, 'price-changed': 409, invalid: 400 }[refusal.kind];
  return new HttpError(status, refusal.problem.code, refusal.problem.message);
}

/** A placement's outcome as the answer to POST /orders (and to the lookup of a placement). */
function sendPlacement(res: Response, result: PlaceOrderResult): void {
  switch (result.kind) {
    case 'refused':
      throw refusalError(result.refusal);
    case 'accepted':
      res.status(201).json({ outcome: 'accepted', order: result.order } satisfies PlacedOrderBody);
      return;
    case 'rejected':
      res.status(402).json({ code: 'INSUFFICIENT_POINTS', message: messages.insufficientPoints, orderId: result.orderId } satisfies ErrorBody);
      return;
    case 'timed-out':
      // Definite: the order was given up, so retrying places a new one and charges once.
      res.setHeader('retry-after', '1');
      res.status(503).json({ code: 'PAYMENT_TIMEOUT', message: messages.paymentTimeout, orderId: result.orderId } satisfies ErrorBody);
      return;
    case 'awaiting_payment':
      res.status(202).json({ outcome: 'awaiting_payment', order: result.order } satisfies PlacedOrderBody);
      return;
    case 'key-reused':
      throw conflict(messages.idempotencyReused, 'IDEMPOTENCY_KEY_REUSED');
  }
}

/** Members' routes (through the BFF, whose service credential names the member and role). */
export function memberRoutes(app: Express, deps: OrderDeps): void {
  app.post('/orders', async (req: Request, res: Response) => {
    const actor = actorOf(req);
    const { waitMs } = parseInput(placeQuery, req.query);
    const body = parseInput(placeBody, req.body ?? {});
    sendPlacement(res, await placeOrder(deps, originOf(req), { ...body, userId: actor.userId, waitMs }));
  });

  // What became of a placement whose call failed (lost, or a temporary error): the BFF asks by the
  // request key it placed under — its placement id, or the client's Idempotency-Key.
  app.post('/orders/placement', async (req: Request, res: Response) => {
    const actor = actorOf(req);
    const { waitMs } = parseInput(placeQuery, req.query);
    const { request } = parseInput(placementLookupRequest, req.body ?? {});
    const result = await answerPlacement(deps, originOf(req), { userId: actor.userId, request, waitMs });
    if (result.kind === 'not-placed') throw notFound(messages.placementNotFound, 'PLACEMENT_NOT_FOUND');
    sendPlacement(res, result);
  });

  app.get('/orders', async (req: Request, res: Response) => {
    const actor = actorOf(req);
    const query = parseInput(orderListQuery, req.query);
    const userId = ownerFor(actor, query.userId);
    await deps.waiter.written(); // an order answered before its write reads as answered
    if (query.ids !== undefined) {
      res.json({ items: await findOrders(deps.store, query.ids, actor.admin && query.userId === undefined ? undefined : userId) } satisfies OrderListBody);
      return;
    }
    res.json((await orderHistory(deps.store, userId, query.status, query)) satisfies OrderPageBody);
  });

  app.get('/orders/:id', async (req: Request, res: Response) => {
    const actor = actorOf(req);
    const { id } = parseInput(idParam, req.params);
    await deps.waiter.written();
    const found = await findAnyOrder(deps.store, id);
    // Someone else's id answers exactly like a missing one.
    if (!found || (!actor.admin && found.userId !== actor.userId)) throw notFound(messages.orderNotFound, 'ORDER_NOT_FOUND');
    res.json(found satisfies AnyOrderViewBody);
  });

  app.get('/auto-orders', async (req: Request, res: Response) => {
    const actor = actorOf(req);
    const query = parseInput(autoOrderListQuery, req.query);
    await deps.waiter.written();
    res.json((await autoOrderHistory(deps.store, ownerFor(actor, query.userId), query.status, query)) satisfies AutoOrderPageBody);
  });

  app.post('/auto-orders/:id/cancel', async (req: Request, res: Response) => {
    const actor = actorOf(req);
    const { id } = parseInput(idParam, req.params);
    const result = await cancelAuto(deps, originOf(req), actor, id);
    if (!result.ok) {
      if (result.kind === 'not-found') throw notFound(result.problem.message, result.problem.code);
      throw conflict(result.problem.message, result.problem.code);
    }
    res.json({ autoOrder: result.autoOrder, refund: deciToWon(result.refundDeci), refundDeci: result.refundDeci } satisfies AutoOrderCancelBody);
  });
}
