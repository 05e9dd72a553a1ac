import type { Request, Response, Router } from 'express';
import { type AdminTopUpRowsBody, type RejectTopUpRequest, adminTopUpPage } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
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

/**
 * The operators' top-up queue (admin and staff): filters, login ids instead of internal ids,
 * approval, rejection with a reason, receipts marked issued (its CSV export: admin-export-routes.ts).
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

  // The CSV export of this list: /admin/top-ups.csv in admin-export-routes.ts (streamed, KST times).

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
