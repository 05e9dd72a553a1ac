import type { Express, Request, Response } from 'express';
import { ChargeStatus, type PaymentTypeFilter, paymentTypeFilters } from '@smm/contracts';
import { HttpError, dateCondition, instantRange, streamNdjson } from '@smm/platform';
import { depositStatuses } from '../domain/deposit.ts';
import type { WalletDeps } from '../use-cases/context.ts';

const words = {
  rangeInvalid: '기간을 올바르게 입력해 주세요. (ISO 8601, 시작 ≤ 끝)',
  filterInvalid: '검색 조건이 올바르지 않습니다.',
};
const bad = () => new HttpError(400, 'VALIDATION_FAILED', words.filterInvalid);
const userIdPattern = /^[A-Za-z0-9-]{1,64}$/;
const ledgerSources = new Set(['order', 'topup', 'refund', 'adjustment', 'referral', 'referral-reversal']);

/** An optional query value that must pass `ok`; 400 otherwise. */
function optional(req: Request, name: string, ok: (value: string) => boolean): string | undefined {
  const value = req.query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !ok(value)) throw bad();
  return value;
}

/**
 * The back office's exports over the wallet (issue 41), under the wallet's operator lock of /admin:
 * top-up requests, bank deposits and the ledger for a date range and filter, as NDJSON streamed from
 * a cursor (oldest first), and the wallet's part of the dashboard's 처리할 일 (deposits waiting for
 * an operator). The BFF turns the lines into CSV.
 */
export function reportRoutes(deps: WalletDeps) {
  const db = () => deps.store.connection;
  return (app: Express) => {
    app.get('/admin/export/top-ups', async (req: Request, res: Response) => {
      const range = instantRange(req.query, words.rangeInvalid);
      const status = optional(req, 'status', (v) => /^\d$/.test(v) && ChargeStatus.is(Number(v)));
      const userId = optional(req, 'userId', (v) => userIdPattern.test(v));
      const paymentType = optional(req, 'paymentType', (v) => Object.hasOwn(paymentTypeFilters, v.toUpperCase()))?.toUpperCase();
      const query: Record<string, unknown> = {};
      const createdAt = dateCondition(range);
      if (createdAt) query.createdAt = createdAt;
      if (status !== undefined) query.status = Number(status);
      if (userId !== undefined) query.userId = userId;
      if (paymentType !== undefined && paymentType !== 'ALL') query.paymentType = { $in: [...paymentTypeFilters[paymentType as PaymentTypeFilter]] };
      const cursor = db().collection('top_ups').find(query, { projection: { fingerprint: 0 } }).sort({ _id: 1 }).batchSize(500);
      await streamNdjson(req, res, cursor, ({ _id, ...doc }) => ({ id: _id, ...doc }));
    });

    app.get('/admin/export/deposits', async (req: Request, res: Response) => {
      const range = instantRange(req.query, words.rangeInvalid);
      const status = optional(req, 'status', (v) => (depositStatuses as readonly string[]).includes(v));
      const query: Record<string, unknown> = {};
      const receivedAt = dateCondition(range);
      if (receivedAt) query.receivedAt = receivedAt;
      if (status !== undefined) query.status = status;
      const cursor = db().collection('deposits').find(query).sort({ receivedAt: 1 }).batchSize(500);
      await streamNdjson(req, res, cursor, ({ _id, ...doc }) => ({ id: _id, ...doc }));
    });

    app.get('/admin/export/ledger', async (req: Request, res: Response) => {
      const range = instantRange(req.query, words.rangeInvalid);
      const userId = optional(req, 'userId', (v) => userIdPattern.test(v));
      const source = optional(req, 'source', (v) => ledgerSources.has(v));
      const query: Record<string, unknown> = {};
      const createdAt = dateCondition(range);
      if (createdAt) query.createdAt = createdAt;
      if (userId !== undefined) query.userId = userId;
      if (source !== undefined) query.source = source;
      // By time across accounts (the createdAt index); one member's in its chain order.
      const cursor = db()
        .collection('ledger_entries')
        .find(query)
        .sort(userId === undefined ? { createdAt: 1, _id: 1 } : { userId: 1, seq: 1 })
        .batchSize(500);
      await streamNdjson(req, res, cursor, ({ _id, ...doc }) => ({ referenceId: _id, ...doc }));
    });

    app.get('/admin/reports/attention', async (_req: Request, res: Response) => {
      const deposits = db().collection('deposits');
      const [unmatched, ambiguous] = await Promise.all([deposits.countDocuments({ status: 'unmatched' }), deposits.countDocuments({ status: 'ambiguous' })]);
      res.json({ deposits: { unmatched, ambiguous } });
    });
  };
}
