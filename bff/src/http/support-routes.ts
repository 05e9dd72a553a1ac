import type { Request, Response, Router } from 'express';
import { ticketLimits } from '@smm/contracts';
import {
  type AdminTicketBody,
  type AdminTicketRowBody,
  type OpenTicketRequest,
  type SavedReplyRequest,
  type TicketMessageRequest,
  orderList,
  openTicketRequest,
  savedReplyRequest,
  ticketDetail,
  ticketMessageRequest,
  ticketPage,
} from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import { failed, relay } from '../upstream/relay.ts';
import type { CallContext, ServiceClient } from '../upstream/service-client.ts';
import { messages } from '../messages.ts';
import { access } from './access.ts';
import { loginIdsFor, userIdOfLoginId } from './admin-login-ids.ts';
import { callContext, callerOf } from './context.ts';
import { idParam, listQuery } from './query.ts';

/** The BFF's own Korean answers for tickets; the support service's pass through unchanged. */
export const supportMessages = {
  ticketNotFound: '문의를 찾을 수 없습니다.',
  savedReplyNotFound: '저장된 답변을 찾을 수 없습니다.',
  orderIdsInvalid: '주문번호는 숫자로 입력해 주세요. 여러 개는 쉼표로 구분합니다.',
  ordersTooMany: `주문번호는 ${ticketLimits.ordersMax}개까지 연결할 수 있습니다.`,
  ordersNotYours: (ids: readonly number[]) => `주문번호 ${ids.map((id) => `#${id}`).join(', ')}은(는) 회원님의 주문에서 찾을 수 없습니다. 주문 내역의 번호를 확인해 주세요.`,
} as const;

const ticketNotFound = () => new HttpError(404, 'TICKET_NOT_FOUND', supportMessages.ticketNotFound);
const savedReplyNotFound = () => new HttpError(404, 'SAVED_REPLY_NOT_FOUND', supportMessages.savedReplyNotFound);

/**
 * The order numbers a member typed: an array of numbers (or digit strings), or one text "12, 34".
 * Anything else is a 400 naming the field; more than the limit too. Duplicates count once.
 */
export function parseOrderIds(value: unknown): number[] {
  if (value === undefined || value === null || value === '') return [];
  const parts: unknown[] = typeof value === 'string' ? value.split(/[\s,]+/).filter((p) => p !== '') : Array.isArray(value) ? value : [value];
  const ids = parts.map((part) => {
    const text = typeof part === 'number' ? String(part) : typeof part === 'string' ? part.trim().replace(/^#/, '') : '';
    if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > 2 ** 31) throw new HttpError(400, 'ORDER_IDS_INVALID', supportMessages.orderIdsInvalid, [{ field: 'orderIds', message: supportMessages.orderIdsInvalid }]);
    return Number(text);
  });
  const unique = [...new Set(ids)];
  if (unique.length > ticketLimits.ordersMax) throw new HttpError(400, 'ORDERS_TOO_MANY', supportMessages.ordersTooMany, [{ field: 'orderIds', message: supportMessages.ordersTooMany }]);
  return unique;
}

/**
 * Only the member's own orders may be named: order answers `GET /orders?ids=` with those of the
 * named member it holds (the member's own id is passed, so an operator opening a ticket for
 * themselves is held to their own orders too). Any other number is refused before anything is stored.
 */
async function checkOwnOrders(order: ServiceClient, ctx: CallContext, userId: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const answer = await order.call(ctx, 'GET', '/orders', { query: new URLSearchParams({ ids: ids.join(','), userId }) });
  // Order refusing the look-up is not the member's mistake: a 502, never "not your order".
  if (failed(answer)) throw new HttpError(502, 'SERVICE_FAILED', messages.upstreamFailed);
  const found = new Set(readAnswer(ctx, answer, orderList).items.filter((o) => o.userId === userId).map((o) => o.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) throw new HttpError(400, 'ORDER_NOT_FOUND', supportMessages.ordersNotYours(missing), [{ field: 'orderIds', message: supportMessages.ordersNotYours(missing) }]);
}

type Clients = { auth: ServiceClient; order: ServiceClient; support: ServiceClient };

const queueFilters = [
  { name: 'status', pattern: /^(open|answered|closed)$/ },
  { name: 'category', pattern: /^(order|payment|account|other)$/ },
  { name: 'orderId', pattern: /^[1-9]\d{0,9}$/ },
  { name: 'ticketId', pattern: /^[1-9]\d{0,9}$/ },
];

/**
 * Support tickets (1:1 문의, issue 40). Members: their own tickets only (support checks the owner
 * again and answers someone else's id like a missing one). Operators, staff and admins alike:
 * the queue, answers, close and reopen, and the saved replies to pick from; only admins write
 * saved replies. Support refuses an operator acting on their own ticket (SELF_ACTION).
 */
export function supportRoutes(router: Router, verifier: TokenVerifier, { auth, order, support }: Clients): void {
  const member = access(verifier, 'notGuest');
  const operator = access(verifier, 'operator');
  const admin = access(verifier, 'admin');
  const ticketPath = (req: Request, prefix: string, rest = '') => `${prefix}/${idParam(req.params.id, ticketNotFound)}${rest}`;

  router.get('/support/tickets', member, async (req: Request, res: Response) => {
    relay(res, await support.call(callContext(req), 'GET', '/tickets', { query: listQuery(req) }));
  });
  router.get('/support/unread', member, async (req: Request, res: Response) => {
    relay(res, await support.call(callContext(req), 'GET', '/tickets/unread'));
  });
  router.post('/support/tickets', member, async (req: Request, res: Response) => {
    const ctx = callContext(req);
    const raw = (req.body ?? {}) as Record<string, unknown>;
    const orderIds = parseOrderIds(raw.orderIds);
    // Text first (support's own messages), so an empty message is told before an order look-up.
    const { category, title, body } = openTicketRequest.parse(raw);
    const checked = { category, title, body, orderIds } satisfies OpenTicketRequest;
    if ((body ?? '').trim() !== '' && (title ?? '').trim() !== '') await checkOwnOrders(order, ctx, callerOf(req).userId, orderIds);
    relay(res, await support.call(ctx, 'POST', '/tickets', { body: checked }));
  });
  router.get('/support/tickets/:id', member, async (req: Request, res: Response) => {
    relay(res, await support.call(callContext(req), 'GET', ticketPath(req, '/tickets')));
  });
  router.post('/support/tickets/:id/messages', member, async (req: Request, res: Response) => {
    const body: TicketMessageRequest = ticketMessageRequest.parse(req.body ?? {});
    relay(res, await support.call(callContext(req), 'POST', ticketPath(req, '/tickets', '/messages'), { body }));
  });
  router.post('/support/tickets/:id/read', member, async (req: Request, res: Response) => {
    relay(res, await support.call(callContext(req), 'POST', ticketPath(req, '/tickets', '/read')));
  });
  router.post('/support/tickets/:id/close', member, async (req: Request, res: Response) => {
    relay(res, await support.call(callContext(req), 'POST', ticketPath(req, '/tickets', '/close')));
  });

  router.get('/admin/support/tickets', operator, async (req: Request, res: Response) => {
    const ctx = callContext(req);
    const query = listQuery(req, queueFilters);
    const loginId = typeof req.query.loginId === 'string' ? req.query.loginId.trim() : '';
    if (loginId !== '') {
      const userId = /^\S{1,100}$/.test(loginId) ? await userIdOfLoginId(auth, ctx, loginId) : null;
      // Nobody by that login id: an empty page rather than every member's tickets.
      if (userId === null) return void res.json({ items: [], page: 1, pageSize: Number(query.get('pageSize') ?? 20), hasNext: false });
      query.set('userId', userId);
    }
    const answer = await support.call(ctx, 'GET', '/admin/tickets', { query });
    if (failed(answer)) return relay(res, answer);
    const page = readAnswer(ctx, answer, ticketPage);
    const logins = await loginIdsFor(auth, ctx, page.items.map((t) => t.userId));
    res.json({ ...page, items: page.items.map((t) => ({ ...t, loginId: logins.get(t.userId) ?? null }) satisfies AdminTicketRowBody) });
  });

  router.get('/admin/support/tickets/:id', operator, async (req: Request, res: Response) => {
    const ctx = callContext(req);
    const answer = await support.call(ctx, 'GET', ticketPath(req, '/admin/tickets'));
    if (failed(answer)) return relay(res, answer);
    res.json(await withMemberAndOrders(ctx, readAnswer(ctx, answer, ticketDetail)));
  });
  for (const action of ['replies', 'close', 'reopen'] as const) {
    router.post(`/admin/support/tickets/:id/${action}`, operator, async (req: Request, res: Response) => {
      const ctx = callContext(req);
      const body = action === 'replies' ? { body: ticketMessageRequest.parse(req.body ?? {}) satisfies TicketMessageRequest } : {};
      const answer = await support.call(ctx, 'POST', ticketPath(req, '/admin/tickets', `/${action}`), body);
      if (failed(answer)) return relay(res, answer);
      res.status(answer.status).json(await withMemberAndOrders(ctx, readAnswer(ctx, answer, ticketDetail)));
    });
  }

  router.get('/admin/support/saved-replies', operator, async (req: Request, res: Response) => {
    relay(res, await support.call(callContext(req), 'GET', '/admin/saved-replies'));
  });
  router.post('/admin/support/saved-replies', admin, async (req: Request, res: Response) => {
    const body: SavedReplyRequest = savedReplyRequest.parse(req.body ?? {});
    relay(res, await support.call(callContext(req), 'POST', '/admin/saved-replies', { body }));
  });
  router.patch('/admin/support/saved-replies/:id', admin, async (req: Request, res: Response) => {
    const body: SavedReplyRequest = savedReplyRequest.parse(req.body ?? {});
    relay(res, await support.call(callContext(req), 'PATCH', `/admin/saved-replies/${idParam(req.params.id, savedReplyNotFound)}`, { body }));
  });
  router.delete('/admin/support/saved-replies/:id', admin, async (req: Request, res: Response) => {
    relay(res, await support.call(callContext(req), 'DELETE', `/admin/saved-replies/${idParam(req.params.id, savedReplyNotFound)}`));
  });

  /**
   * The console's ticket: the member's login id, operators' login ids on their answers, and the
   * linked orders as order holds them now (null when order did not answer: the thread still shows).
   */
  async function withMemberAndOrders(ctx: CallContext, ticket: ReturnType<typeof ticketDetail.parse>): Promise<AdminTicketBody> {
    const authors = ticket.messages.map((m) => (typeof m.authorId === 'string' ? m.authorId : null)).filter((id): id is string => id !== null);
    const logins = await loginIdsFor(auth, ctx, [ticket.userId, ...authors]);
    let orders: AdminTicketBody['orders'] = [];
    if (ticket.orderIds.length > 0) {
      try {
        const answer = await order.call(ctx, 'GET', '/orders', { query: new URLSearchParams({ ids: ticket.orderIds.join(','), userId: ticket.userId }) });
        orders = failed(answer)
          ? null
          : readAnswer(ctx, answer, orderList).items.map((o) => ({ id: o.id, kind: o.kind, serviceText: o.serviceText, link: o.link, amount: o.kind === 'auto' ? o.totalQuantity : o.amount, status: o.status, createdAt: o.createdAt }));
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        orders = null;
      }
    }
    return {
      ...ticket,
      loginId: logins.get(ticket.userId) ?? null,
      messages: ticket.messages.map((m) => ({ ...m, authorLoginId: typeof m.authorId === 'string' ? (logins.get(m.authorId) ?? null) : null })),
      orders,
    };
  }
}
