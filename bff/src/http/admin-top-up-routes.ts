import type { Request, Response, Router } from 'express';
import { ChargeStatus, receiptTypeLabels } from '@smm/contracts';
import { type AdminTopUpRowsBody, type AdminTopUpViewBody, type RejectTopUpRequest, adminTopUpPage } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import { type CsvCell, toCsv } from '../domain/csv.ts';
import { messages } from '../messages.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import { relay } from '../upstream/relay.ts';
import type { CallContext, ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { userIdOfLoginId, withLoginIds } from './admin-login-ids.ts';
import { callContext } from './context.ts';
import { idParam, listQuery, paymentTypeRule, userIdRule } from './query.ts';

const topUpNotFound = () => new HttpError(404, 'TOPUP_NOT_FOUND', messages.topUpNotFound);
const topUpStatusRule = { name: 'status', pattern: /^[0-2]$/ };
const loginIdPattern = /^[^\s/]{1,50}$/;
/** The export walks wallet's pages; more rows than this ask for a narrower filter. */
const csvMaxRows = 10_000;

type AdminTopUp = AdminTopUpViewBody;

/** The wallet query of an operator's filter; null when the login id filter names nobody. */
async function walletQuery(req: Request, auth: ServiceClient, ctx: CallContext): Promise<URLSearchParams | null> {
  const query = listQuery(req, [topUpStatusRule, paymentTypeRule, userIdRule]);
  const loginId = typeof req.query.loginId === 'string' ? req.query.loginId.trim() : '';
  if (loginId !== '') {
    if (!loginIdPattern.test(loginId)) throw new HttpError(400, 'VALIDATION_FAILED', messages.badRequest, [{ field: 'loginId', message: messages.badRequest }]);
    const userId = await userIdOfLoginId(auth, ctx, loginId);
    if (userId === null) return null;
    query.set('userId', userId);
  }
  return query;
}

function reasonOf(body: unknown): string {
  const reason = typeof body === 'object' && body !== null ? (body as { reason?: unknown }).reason : undefined;
  const text = typeof reason === 'string' ? reason.trim() : '';
  if (text === '') throw new HttpError(400, 'REASON_REQUIRED', messages.rejectReasonRequired);
  if (text.length > 200) throw new HttpError(400, 'REASON_TOO_LONG', messages.rejectReasonTooLong);
  return text;
}

const receiptDetails = (t: AdminTopUp): string =>
  t.receiptType === 'fee'
    ? [t.feeValue.company, t.feeValue.businessNumber, t.feeValue.leader, t.feeValue.phone, t.feeValue.email].join(' / ')
    : t.receiptType === 'cash'
      ? (t.feeValue.phone ?? '')
      : '';

const csvHeader = ['번호', '신청 시각', '아이디', '입금자명', '충전 포인트', '입금 금액', '영수증', '영수증 정보', '발행 처리', '상태', '처리 시각', '거절 사유'];
const csvRow = (t: AdminTopUp & { loginId: string | null }): CsvCell[] => [
  t.id,
  t.createdAt,
  t.loginId,
  t.name,
  t.point,
  t.transferAmount,
  receiptTypeLabels[t.receiptType],
  receiptDetails(t),
  t.receiptIssuedAt,
  ChargeStatus.is(t.status) ? ChargeStatus.label(t.status) : String(t.status),
  t.responseAt,
  t.rejectReason,
];

/**
 * The operators' top-up queue (admin and staff): filters, login ids instead of internal ids,
 * approval, rejection with a reason, receipts marked issued, and a CSV export of the filtered list.
 */
export function adminTopUpRoutes(router: Router, verifier: TokenVerifier, auth: ServiceClient, wallet: ServiceClient): void {
  const operator = access(verifier, 'operator');

  router.get('/admin/top-ups', operator, async (req: Request, res: Response) => {
    const ctx = callContext(req);
    const query = await walletQuery(req, auth, ctx);
    if (query === null) {
      res.json({ items: [], page: Number(req.query.page ?? 1) || 1, pageSize: Number(req.query.pageSize ?? 20) || 20, hasNext: false } satisfies AdminTopUpRowsBody);
      return;
    }
    const answer = await wallet.call(ctx, 'GET', '/admin/top-ups', { query });
    if (answer.status !== 200) return relay(res, answer);
    const page = readAnswer(ctx, answer, adminTopUpPage);
    res.json({ ...page, items: await withLoginIds(auth, ctx, page.items) } satisfies AdminTopUpRowsBody);
  });

  router.get('/admin/top-ups.csv', operator, async (req: Request, res: Response) => {
    const ctx = callContext(req);
    const query = await walletQuery(req, auth, ctx);
    const rows: CsvCell[][] = [];
    for (let page = 1; query !== null && rows.length < csvMaxRows; page++) {
      query.set('page', String(page));
      query.set('pageSize', '100');
      const answer = await wallet.call(ctx, 'GET', '/admin/top-ups', { query });
      if (answer.status !== 200) return relay(res, answer);
      const body = readAnswer(ctx, answer, adminTopUpPage);
      for (const item of await withLoginIds(auth, ctx, body.items)) rows.push(csvRow(item));
      if (!body.hasNext) break;
    }
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="top-ups-${new Date().toISOString().slice(0, 10)}.csv"`);
    res.send(toCsv(csvHeader, rows.slice(0, csvMaxRows)));
  });

  router.post('/admin/top-ups/:id/approve', operator, async (req: Request, res: Response) => {
    const id = idParam(req.params.id, topUpNotFound);
    relay(res, await wallet.call(callContext(req), 'POST', `/admin/top-ups/${id}/approve`));
  });
  router.post('/admin/top-ups/:id/reject', operator, async (req: Request, res: Response) => {
    const id = idParam(req.params.id, topUpNotFound);
    const reason = reasonOf(req.body);
    relay(res, await wallet.call(callContext(req), 'POST', `/admin/top-ups/${id}/reject`, { body: { reason } satisfies RejectTopUpRequest }));
  });
  router.post('/admin/top-ups/:id/receipt-issued', operator, async (req: Request, res: Response) => {
    const id = idParam(req.params.id, topUpNotFound);
    relay(res, await wallet.call(callContext(req), 'POST', `/admin/top-ups/${id}/receipt-issued`));
  });
}
