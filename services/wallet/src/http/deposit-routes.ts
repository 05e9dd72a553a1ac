import type { Express } from 'express';
import { deciToWon } from '@smm/contracts';
import { type DepositPageBody, type DepositViewBody, attachDepositRequest, manualDepositRequest } from '@smm/contracts/http';
import { HttpError, badRequest } from '@smm/platform';
import { type Deposit, type DepositStatus, depositStatuses, validateDeposit } from '../domain/deposit.ts';
import { messages } from '../domain/messages.ts';
import { type AttachTarget, attachDeposit, recordDeposit } from '../use-cases/deposits.ts';
import type { WalletDeps } from '../use-cases/context.ts';
import { paged } from '../use-cases/views.ts';
import { callerId, originOf } from './actor.ts';
import { pageOf, queryText } from './paging.ts';

function depositView(d: Deposit): DepositViewBody {
  return {
    id: d.id,
    source: d.source,
    transactionId: d.transactionId,
    depositorName: d.depositorName,
    amount: deciToWon(d.amountDeci),
    amountDeci: d.amountDeci,
    depositedAt: d.depositedAt.toISOString(),
    receivedAt: d.receivedAt.toISOString(),
    status: d.status,
    topUpId: d.topUpId,
    userId: d.userId,
    candidates: d.candidates,
    resolvedAt: d.resolvedAt ? d.resolvedAt.toISOString() : null,
  };
}

function attachTargetOf(body: unknown): AttachTarget {
  const input = attachDepositRequest.parse(body);
  const hasTopUp = input.topUpId !== undefined && input.topUpId !== null;
  const hasUser = input.userId !== undefined && input.userId !== null;
  if (hasTopUp === hasUser) throw badRequest(messages.depositTargetInvalid, undefined, 'DEPOSIT_TARGET_INVALID');
  if (hasTopUp) {
    if (typeof input.topUpId !== 'number' || !Number.isSafeInteger(input.topUpId) || input.topUpId < 1) throw badRequest(messages.depositTargetInvalid, undefined, 'DEPOSIT_TARGET_INVALID');
    return { topUpId: input.topUpId };
  }
  if (typeof input.userId !== 'string' || !/^[A-Za-z0-9-]{1,64}$/.test(input.userId)) throw badRequest(messages.depositTargetInvalid, undefined, 'DEPOSIT_TARGET_INVALID');
  return { userId: input.userId };
}

/**
 * Bank deposits (issue 12): recorded from the notification service (the BFF checked its
 * signature; internal only, like the other service routes), listed for operators, entered by hand
 * and attached to a request or a member.
 */
export function depositRoutes(deps: WalletDeps) {
  return (app: Express) => {
    app.post('/deposits/bank', async (req, res) => {
      const checked = validateDeposit(req.body, new Date());
      if (!checked.ok) throw badRequest(checked.problem.message, undefined, checked.problem.code);
      const result = await recordDeposit(deps, 'bank', checked.input, originOf(req), null);
      if ('refused' in result) throw new Error('a bank notification has no operator to refuse');
      req.log.info({ depositId: result.deposit.id, status: result.deposit.status, created: result.created, topUpId: result.deposit.topUpId }, 'bank deposit notified');
      res.status(result.created ? 201 : 200).json(depositView(result.deposit));
    });

    // Under /admin: walletRoutes' operator check runs first.
    app.get('/admin/deposits', async (req, res) => {
      const status = queryText(req, 'status');
      if (status !== undefined && status !== 'open' && !(depositStatuses as readonly string[]).includes(status)) throw badRequest(messages.depositStatusInvalid, undefined, 'STATUS_INVALID');
      const { page, pageSize, skip } = pageOf(req);
      const rows = await deps.store.deposits.page(status as DepositStatus | 'open' | undefined, skip, pageSize + 1);
      res.json(paged(rows, page, pageSize, depositView) satisfies DepositPageBody);
    });

    app.post('/admin/deposits', async (req, res) => {
      // A hand entry has no bank transaction id; it gets its own.
      const checked = validateDeposit({ ...manualDepositRequest.parse(req.body), transactionId: 'manual' }, new Date());
      if (!checked.ok) throw badRequest(checked.problem.message, undefined, checked.problem.code);
      const operator = callerId(req);
      const result = await recordDeposit(deps, 'manual', checked.input, originOf(req), operator, req.caller);
      if ('refused' in result) throw new HttpError(403, result.refused.code, result.refused.message);
      req.log.info({ depositId: result.deposit.id, status: result.deposit.status, operator }, 'deposit entered by hand');
      res.status(201).json(depositView(result.deposit));
    });

    app.post('/admin/deposits/:id/attach', async (req, res) => {
      const target = attachTargetOf(req.body);
      const operator = callerId(req);
      const result = await attachDeposit(deps, req.params.id, target, originOf(req), operator, req.caller);
      if (!result.ok) throw new HttpError(result.status, result.problem.code, result.problem.message);
      req.log.info({ depositId: result.deposit.id, topUpId: result.deposit.topUpId, operator }, 'deposit attached');
      res.json(depositView(result.deposit));
    });
  };
}
