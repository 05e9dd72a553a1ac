import type { Express, Request, Response } from 'express';
import { HttpError, instantRange, roleGate, streamNdjson } from '@smm/platform';
import { messages } from '../domain/messages.ts';
import type { OrderDeps } from '../use-cases/context.ts';
import { type MemberSort, type RevenueGroupBy, memberTotals, orderExportCursor, rankedMembers, revenueGroups } from '../store/report-queries.ts';

const words = {
  rangeInvalid: '기간을 올바르게 입력해 주세요. (ISO 8601, 시작 ≤ 끝)',
  groupInvalid: '집계 기준은 day, product, member 중 하나입니다.',
  filterInvalid: '검색 조건이 올바르지 않습니다.',
};
const bad = (message: string) => new HttpError(400, 'VALIDATION_FAILED', message);
const groupings = new Set<RevenueGroupBy>(['day', 'product', 'member']);
const sorts = new Set<MemberSort>(['spent', 'refunded', 'orders']);
const userIdPattern = /^[A-Za-z0-9-]{1,64}$/;

const optionalInt = (value: unknown, max: number): number | undefined => {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value) || Number(value) > max) throw bad(words.filterInvalid);
  return Number(value);
};

/**
 * The back office's reports and exports over orders (issue 41), under adminRoutes' operator lock:
 * - `GET /admin/reports/revenue?by=day|product|member&from&to` (admin): what members paid and got
 *   back, per group, each payment once (store/report-queries.ts);
 * - `GET /admin/reports/member-totals?ids=` (operators): orders, charged and refunded per member;
 * - `GET /admin/reports/members?sort=spent|refunded|orders&page&pageSize` (operators): members ranked;
 * - `GET /admin/export/orders?from&to&status&userId&serviceId` (operators): paid orders as NDJSON,
 *   streamed from a cursor.
 */
export function reportRoutes(app: Express, deps: OrderDeps): void {
  const admin = roleGate('admin', messages.adminOnly);
  const connection = deps.store.connection;

  app.get('/admin/reports/revenue', admin, async (req: Request, res: Response) => {
    const by = req.query.by as RevenueGroupBy;
    if (!groupings.has(by)) throw bad(words.groupInvalid);
    const range = instantRange(req.query, words.rangeInvalid);
    res.json({ by, groups: await revenueGroups(connection, by, range) });
  });

  app.get('/admin/reports/member-totals', async (req: Request, res: Response) => {
    const ids = typeof req.query.ids === 'string' && req.query.ids !== '' ? req.query.ids.split(',') : [];
    if (ids.length > 200 || ids.some((id) => !userIdPattern.test(id))) throw bad(words.filterInvalid);
    res.json({ items: await memberTotals(connection, ids) });
  });

  app.get('/admin/reports/members', async (req: Request, res: Response) => {
    const sort = (req.query.sort ?? 'spent') as MemberSort;
    if (!sorts.has(sort)) throw bad(words.filterInvalid);
    const page = optionalInt(req.query.page, 1_000_000) ?? 1;
    const pageSize = optionalInt(req.query.pageSize, 100) ?? 20;
    if (page < 1 || pageSize < 1) throw bad(words.filterInvalid);
    const rows = await rankedMembers(connection, sort, (page - 1) * pageSize, pageSize + 1);
    res.json({ items: rows.slice(0, pageSize), page, pageSize, hasNext: rows.length > pageSize });
  });

  app.get('/admin/export/orders', async (req: Request, res: Response) => {
    const range = instantRange(req.query, words.rangeInvalid);
    const status = optionalInt(req.query.status, 5);
    const serviceId = optionalInt(req.query.serviceId, 1_000_000_000);
    const userId = req.query.userId;
    if (userId !== undefined && (typeof userId !== 'string' || !userIdPattern.test(userId))) throw bad(words.filterInvalid);
    const cursor = orderExportCursor(connection, { ...range, ...(status !== undefined && { status }), ...(serviceId !== undefined && { serviceId }), ...(typeof userId === 'string' && { userId }) });
    await streamNdjson(req, res, cursor, (doc) => ({ ...doc, id: doc._id, _id: undefined }));
  });
}
