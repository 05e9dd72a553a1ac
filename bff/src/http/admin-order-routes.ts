import type { Request, Response, Router } from 'express';
import { type AdminOrderSearchBody, type BulkOrderResultBody, type OrderStatusPatchRequest, bulkOrderChangeRequest, errorBody, orderPage } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import { relay } from '../upstream/relay.ts';
import { type ServiceClient, ServiceUnavailable } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { userIdOfLoginId, withLoginIds } from './admin-login-ids.ts';
import { searchByProvider, withForwarding } from './admin-order-forwarding.ts';
import { callContext } from './context.ts';
import { listQuery, statusRule } from './query.ts';

const bad = (field: string) => new HttpError(400, 'VALIDATION_FAILED', messages.badRequest, [{ field, message: messages.badRequest }]);
/** One bulk change touches at most a page of orders. */
const maxBulk = 100;

/**
 * Operators' order screen (issue 12): server-side search by order id, member login id, exact link,
 * status and product, answering login ids; status, start count and remains changed for one or many
 * orders (each through order's guarded transition, refunds included). Each row carries its
 * forwarding (state, provider, provider's order id) from one batched fulfillment lookup per page;
 * `providerId` lists the orders forwarded to that provider (see searchByProvider).
 */
export function adminOrderRoutes(router: Router, verifier: TokenVerifier, auth: ServiceClient, order: ServiceClient, fulfillment: ServiceClient): void {
  const operator = access(verifier, 'operator');

  router.get('/admin/orders/search', operator, async (req: Request, res: Response) => {
    const ctx = callContext(req);
    const query = listQuery(req, [statusRule, { name: 'serviceId', pattern: /^[1-9]\d{0,9}$/ }, { name: 'orderId', pattern: /^[1-9]\d{0,14}$/ }, { name: 'providerId', pattern: /^[1-9]\d{0,9}$/ }]);
    const providerId = query.get('providerId');
    query.delete('providerId');
    const orderId = query.get('orderId');
    if (orderId !== null) {
      query.delete('orderId');
      query.set('id', orderId);
    }
    const link = typeof req.query.link === 'string' ? req.query.link.trim() : '';
    if (link.length > 500) throw bad('link');
    if (link !== '') query.set('link', link);
    const loginId = typeof req.query.loginId === 'string' ? req.query.loginId.trim() : '';
    if (loginId !== '') {
      if (loginId.length > 50 || /[\s/]/.test(loginId)) throw bad('loginId');
      const userId = await userIdOfLoginId(auth, ctx, loginId);
      if (userId === null) {
        res.json({ items: [], page: Number(query.get('page') ?? 1), pageSize: Number(query.get('pageSize') ?? 20), hasNext: false } satisfies AdminOrderSearchBody);
        return;
      }
      query.set('userId', userId);
    }
    if (providerId !== null) {
      const optional = (name: string) => (query.has(name) ? { [name]: query.get(name)! } : {});
      // Fulfillment holds which orders went to which provider: while it cannot answer, this filter
      // has nothing to read — an empty page that says so (the list without the filter still works).
      const unavailable = { items: [], page: Number(query.get('page') ?? 1), pageSize: Number(query.get('pageSize') ?? 20), hasNext: false, forwardingUnavailable: true as const } satisfies AdminOrderSearchBody;
      const found = await searchByProvider(fulfillment, order, ctx, {
        providerId,
        ...optional('userId'),
        ...optional('serviceId'),
        ...optional('link'),
        ...(query.has('id') ? { orderId: query.get('id')! } : {}),
        ...optional('status'),
        page: Number(query.get('page') ?? 1),
        pageSize: Number(query.get('pageSize') ?? 20),
      }).catch((error: unknown) => {
        if (error instanceof ServiceUnavailable && error.service === fulfillment.name) return { fulfillmentDown: true as const };
        throw error;
      });
      if ('fulfillmentDown' in found) return void res.json(unavailable);
      if ('relayed' in found) return found.from === 'fulfillment' && found.relayed!.status >= 500 ? void res.json(unavailable) : relay(res, found.relayed!);
      res.json({ ...found.page, items: await withLoginIds(auth, ctx, found.page.items) } satisfies AdminOrderSearchBody);
      return;
    }
    const answer = await order.call(ctx, 'GET', '/admin/orders/search', { query });
    if (answer.status !== 200) return relay(res, answer);
    const page = await withForwarding(fulfillment, ctx, readAnswer(ctx, answer, orderPage));
    res.json({ ...page, items: await withLoginIds(auth, ctx, page.items) } satisfies AdminOrderSearchBody);
  });

  // The provider filter's choices; staff may not open the providers screen, so only id and name.
  router.get('/admin/orders/providers', operator, async (req: Request, res: Response) => {
    relay(res, await fulfillment.call(callContext(req), 'GET', '/admin/order-forwards/providers'));
  });

  router.post('/admin/orders/bulk', operator, async (req: Request, res: Response) => {
    const { ids, status, startCount, remains } = bulkOrderChangeRequest.parse(req.body);
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > maxBulk || !ids.every((id) => Number.isSafeInteger(id) && (id as number) > 0)) throw bad('ids');
    const ctx = callContext(req);
    const patch = { status, startCount, remains } satisfies OrderStatusPatchRequest;
    const results: BulkOrderResultBody['results'] = [];
    // One after another: each change is its own transaction with its own refund, and the answer
    // says which ones order refused (a final order, for instance) without undoing the others.
    for (const id of new Set(ids as number[])) {
      const answer = await order.call(ctx, 'PATCH', `/admin/orders/${id}`, { body: patch });
      // A refusal is order's error body; anything else still names the HTTP status.
      const body = errorBody.safeParse(answer.body).data;
      results.push(answer.status === 200 ? { id, ok: true } : { id, ok: false, code: body?.code ?? `HTTP_${answer.status}`, message: body?.message ?? messages.upstreamFailed });
    }
    res.json({ results } satisfies BulkOrderResultBody);
  });
}
