import type { Express, Request, Response } from 'express';
import type { OrderPageBody, OrderViewBody } from '@smm/contracts/http';
import { badRequest, conflict, forbidden, notFound, parseInput } from '@smm/platform';
import { messages } from '../domain/messages.ts';
import type { StatusPatch } from '../domain/order-status.ts';
import { changeOrderStatus } from '../use-cases/change-order-status.ts';
import type { OrderDeps } from '../use-cases/context.ts';
import { adminOrders } from '../use-cases/read-orders.ts';
import { operatorOnly, originOf } from './actor.ts';
import { adminOrderQuery, idParam, statusPatchBody } from './schemas.ts';

/** Body values as typed; the guarded transition checks ranges. Wrong types are refused here. */
function toPatch(body: { status?: unknown; startCount?: unknown; remains?: unknown; reason?: string | undefined }): StatusPatch {
  const patch: StatusPatch = {};
  if (body.reason !== undefined) patch.reason = body.reason;
  if (body.status !== undefined) {
    if (typeof body.status !== 'number') throw badRequest(messages.statusInvalid, undefined, 'STATUS_INVALID');
    patch.status = body.status;
  }
  if (body.startCount !== undefined) {
    if (body.startCount !== null && !(typeof body.startCount === 'number' && Number.isInteger(body.startCount) && body.startCount >= 0)) {
      throw badRequest(messages.startCountInvalid, undefined, 'START_COUNT_INVALID');
    }
    patch.startCount = body.startCount;
  }
  if (body.remains !== undefined) {
    if (typeof body.remains !== 'number') throw badRequest(messages.remainsInvalid, undefined, 'REMAINS_INVALID');
    patch.remains = body.remains;
  }
  if (patch.status === undefined && patch.startCount === undefined && patch.remains === undefined) throw badRequest(messages.nothingToUpdate, undefined, 'NOTHING_TO_UPDATE');
  return patch;
}

/** Operators' routes: a credential with role admin, else 403. */
export function adminRoutes(app: Express, deps: OrderDeps): void {
  app.use('/admin', operatorOnly);

  app.get('/admin/orders', async (req: Request, res: Response) => {
    const query = parseInput(adminOrderQuery, req.query);
    res.json((await adminOrders(deps.store, query, query)) satisfies OrderPageBody);
  });

  app.patch('/admin/orders/:id', async (req: Request, res: Response) => {
    const { id } = parseInput(idParam, req.params);
    const patch = toPatch(parseInput(statusPatchBody, req.body ?? {}));
    const result = await changeOrderStatus(deps, originOf(req), id, patch, req.caller);
    if (result.ok) {
      req.log.info({ userId: req.caller.userId, orderId: id, patch }, 'operator changed an order');
      res.json(result.order satisfies OrderViewBody);
      return;
    }
    if (result.kind === 'not-found') throw notFound(result.problem.message, result.problem.code);
    if (result.kind === 'invalid') throw badRequest(result.problem.message, undefined, result.problem.code);
    if (result.kind === 'forbidden') throw forbidden(result.problem.message, result.problem.code);
    throw conflict(result.problem.message, result.problem.code);
  });
}
