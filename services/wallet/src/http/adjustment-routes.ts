import type { Express } from 'express';
import { deciToWon } from '@smm/contracts';
import { type AdjustmentListBody, type AdjustmentViewBody, adjustmentRequest } from '@smm/contracts/http';
import { HttpError, badRequest, forbidden } from '@smm/platform';
import { validateAdjustment } from '../domain/adjustment.ts';
import { messages } from '../domain/messages.ts';
import type { Adjustment } from '../store/adjustment.model.ts';
import { adjustBalance } from '../use-cases/adjust-balance.ts';
import type { WalletDeps } from '../use-cases/context.ts';
import { callerId, isAdmin, originOf } from './actor.ts';

const view = (a: Adjustment) => ({
  id: a.id,
  userId: a.userId,
  amount: deciToWon(a.deltaDeci),
  amountDeci: a.deltaDeci,
  balanceAfterDeci: a.balanceAfterDeci,
  reason: a.reason,
  operatorId: a.operatorId,
  createdAt: a.createdAt.toISOString(),
});

/** Balance adjustments (issue 12): admins only (staff read them but cannot make them). */
export function adjustmentRoutes(deps: WalletDeps) {
  return (app: Express) => {
    app.post('/admin/accounts/:userId/adjustments', async (req, res) => {
      if (!isAdmin(req)) throw forbidden(messages.adminOnly, 'ADMIN_ONLY');
      const checked = validateAdjustment(adjustmentRequest.parse(req.body));
      if (!checked.ok) throw badRequest(checked.problem.message, undefined, checked.problem.code);
      const operator = callerId(req);
      const result = await adjustBalance(deps, req.params.userId, checked.input, operator, originOf(req), req.caller);
      if (!result.ok) throw new HttpError(result.status, result.problem.code, result.problem.message);
      req.log.info({ userId: req.params.userId, deltaDeci: result.adjustment.deltaDeci, operator }, 'balance adjusted');
      res.status(201).json(view(result.adjustment) satisfies AdjustmentViewBody);
    });
    app.get('/admin/accounts/:userId/adjustments', async (req, res) => {
      res.json({ items: (await deps.store.adjustments.ofMember(req.params.userId, 100)).map(view) } satisfies AdjustmentListBody);
    });
  };
}
