import type { Express } from 'express';
import { ChargeStatus, type PaymentTypeFilter, deciToWon, paymentTypeFilters } from '@smm/contracts';
import {
  type AdminTopUpPageBody,
  type AdminTopUpViewBody,
  type BalanceBody,
  type LedgerPageBody,
  type RejectTopUpRequest,
  type TopUpPageBody,
  type TopUpViewBody,
  rejectTopUpRequest,
  topUpRequest,
} from '@smm/contracts/http';
import { HttpError, badRequest, forbidden, notFound } from '@smm/platform';
import { messages } from '../domain/messages.ts';
import type { WalletDeps } from '../use-cases/context.ts';
import { markReceiptIssued } from '../use-cases/receipts.ts';
import { cancelTopUp, decideTopUpRequest, requestTopUp } from '../use-cases/top-ups.ts';
import { adminTopUpView, ledgerView, paged, topUpView } from '../use-cases/views.ts';
import { callerId, isOperator, operatorOnly, originOf } from './actor.ts';
import { pageOf, queryText } from './paging.ts';
import { moneyAdminRoutes } from './money-admin-routes.ts';
import { referralRoutes } from './referral-routes.ts';

/** An optional operator's reason for a rejection: trimmed, at most 200 characters, else none. */
const rejectReasonOf = ({ reason }: RejectTopUpRequest): string | null => {
  if (typeof reason !== 'string' || reason.trim() === '') return null;
  if (reason.trim().length > 200) throw badRequest(messages.rejectReasonTooLong, undefined, 'REASON_TOO_LONG');
  return reason.trim();
};

const topUpIdOf = (raw: string | undefined): number => {
  const id = raw !== undefined && /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
  if (id < 1) throw notFound(messages.topUpNotFound, 'TOPUP_NOT_FOUND');
  return id;
};

/** Issue 39's refusals of a new request: held (403), too many open (409), too many this hour (429). */
const limitStatus: Record<string, number> = { TOPUP_HELD: 403, TOPUP_OPEN_LIMIT: 409, TOPUP_RATE_LIMIT: 429 };

export function walletRoutes(deps: WalletDeps) {
  const { store } = deps;
  return (app: Express) => {
    /** A member's balance: `point` in won (up to one decimal) for screens, `pointDeci` exact. */
    app.get('/accounts/:userId', async (req, res) => {
      const account = await store.accounts.find(req.params.userId);
      if (!account) throw notFound(messages.accountNotFound, 'ACCOUNT_NOT_FOUND');
      res.json({ userId: account.userId, point: deciToWon(account.balanceDeci), pointDeci: account.balanceDeci } satisfies BalanceBody);
    });

    /** 201 for a new request; 200 with the earlier one for a double submit. */
    app.post('/top-ups', async (req, res) => {
      const result = await requestTopUp(deps, callerId(req), topUpRequest.parse(req.body), originOf(req));
      if (!result.ok) {
        const limited = limitStatus[result.problem.code];
        if (limited !== undefined) throw new HttpError(limited, result.problem.code, result.problem.message);
        throw badRequest(result.problem.message, undefined, result.problem.code);
      }
      if (result.created) req.log.info({ topUpId: result.topUp.id, pointDeci: result.topUp.pointDeci }, 'top-up requested');
      res.status(result.created ? 201 : 200).json(topUpView(result.topUp) satisfies TopUpViewBody);
    });

    /** The member withdraws their own pending request (issue 40); anyone else's answers 404. */
    app.post('/top-ups/:id/cancel', async (req, res) => {
      const id = topUpIdOf(req.params.id);
      const result = await cancelTopUp(deps, callerId(req), id, originOf(req));
      if (!result.ok) throw new HttpError(result.status, result.problem.code, result.problem.message);
      req.log.info({ topUpId: id }, 'top-up canceled by its member');
      const { expiresAt: _e, ...view } = topUpView(result.topUp);
      res.json(view satisfies TopUpViewBody);
    });

    /** A member's own history, newest first; operators may read anyone's. */
    app.get('/top-ups', async (req, res) => {
      const caller = callerId(req);
      const userId = queryText(req, 'userId') ?? caller;
      if (userId !== caller && !isOperator(req)) throw forbidden(messages.notYours, 'FORBIDDEN');
      const { page, pageSize, skip } = pageOf(req);
      const rows = await store.topUps.page({ userId }, skip, pageSize + 1);
      res.json(
        paged(rows, page, pageSize, (t) => {
          const { expiresAt: _e, ...view } = topUpView(t);
          return view;
        }) satisfies TopUpPageBody,
      );
    });

    referralRoutes(deps)(app);

    app.use('/admin', operatorOnly);
    moneyAdminRoutes(deps)(app);

    app.get('/admin/top-ups', async (req, res) => {
      const statusText = queryText(req, 'status');
      const status = statusText === undefined ? undefined : Number(statusText);
      if (status !== undefined && (!/^\d$/.test(statusText!) || !ChargeStatus.is(status))) {
        throw badRequest(messages.statusFilterInvalid, undefined, 'STATUS_INVALID');
      }
      const filterName = (queryText(req, 'paymentType') ?? 'ALL').toUpperCase();
      if (!Object.hasOwn(paymentTypeFilters, filterName)) throw badRequest(messages.paymentTypeFilterInvalid, undefined, 'PAYMENT_TYPE_INVALID');
      const paymentTypes = filterName === 'ALL' ? undefined : paymentTypeFilters[filterName as PaymentTypeFilter];
      const { page, pageSize, skip } = pageOf(req);
      const userId = queryText(req, 'userId');
      const rows = await store.topUps.page(
        { ...(userId === undefined ? {} : { userId }), ...(status === undefined ? {} : { status }), ...(paymentTypes ? { paymentTypes } : {}) },
        skip,
        pageSize + 1,
      );
      // Issue 39: each row says how often its member's requests expired unpaid this week.
      const expired = await store.topUps.expiredRecentlyOf(rows.slice(0, pageSize).map((t) => t.userId), new Date());
      res.json(paged(rows, page, pageSize, (t) => ({ ...adminTopUpView(t), memberExpiredRecently: expired.get(t.userId) ?? 0 })) satisfies AdminTopUpPageBody);
    });

    for (const decision of ['approve', 'reject'] as const) {
      app.post(`/admin/top-ups/:id/${decision}`, async (req, res) => {
        const id = topUpIdOf(req.params.id);
        const result = await decideTopUpRequest(deps, id, decision, originOf(req), decision === 'reject' ? rejectReasonOf(rejectTopUpRequest.parse(req.body)) : null, req.caller);
        if (!result.ok) throw new HttpError(result.status, result.problem.code, result.problem.message);
        req.log.info({ topUpId: id, decision, operator: req.caller.userId }, 'top-up decided');
        res.json(adminTopUpView(result.topUp) satisfies AdminTopUpViewBody);
      });
    }

    app.post('/admin/top-ups/:id/receipt-issued', async (req, res) => {
      const id = topUpIdOf(req.params.id);
      const marked = await markReceiptIssued(deps, id, req.caller, originOf(req));
      if (!marked) {
        const current = await store.topUps.find(id);
        if (!current) throw notFound(messages.topUpNotFound, 'TOPUP_NOT_FOUND');
        throw new HttpError(409, 'RECEIPT_NOT_ISSUABLE', messages.receiptNotIssuable);
      }
      req.log.info({ topUpId: id, operator: callerId(req) }, 'receipt marked issued');
      res.json(adminTopUpView(marked) satisfies AdminTopUpViewBody);
    });

    app.get('/admin/accounts/:userId/ledger', async (req, res) => {
      const { page, pageSize, skip } = pageOf(req);
      const rows = await store.ledger.page(req.params.userId, skip, pageSize + 1);
      res.json(paged(rows, page, pageSize, ledgerView) satisfies LedgerPageBody);
    });
  };
}
