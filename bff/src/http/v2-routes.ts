import express from 'express';
import multer from 'multer';
import type { Express, NextFunction, Request, Response } from 'express';
import { isV2Action, serviceTypeApiNames } from '@smm/contracts';
import { anyOrderView, balance, errorBody, orderList } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import { type OrderView, parseOrderIds, ratePer1000, typeTakesQuantity, v2ErrorFor, v2Errors, v2Status, wonString } from '../domain/panel-v2.ts';
import { RateLimited } from '../reseller/rate-limiter.ts';
import type { Reseller } from '../reseller/reseller.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import { type ServiceClient, ServiceUnavailable } from '../upstream/service-client.ts';
import { callContext } from './context.ts';
import { orderBody } from './money-schemas.ts';
import { placeOrder, retryLater, withIdempotency } from './reseller-routes.ts';
import { productFlags, v2FulfillmentAction } from './v2-fulfillment.ts';
import { unsafeText } from './text-guard.ts';

/** A v2 answer that is an error: `{ error }` with an HTTP status. */
class V2Error extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
  ) {
    super(error);
  }
}

type Fields = Record<string, unknown>;
const field = (body: Fields, name: string): string | undefined => {
  const v = body[name];
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
};

/** Any failure on the way becomes `{ error }` in English, with a status a client can act on. */
function asV2Error(error: unknown): { status: number; error: string; retryAfter?: number } {
  if (error instanceof V2Error) return { status: error.status, error: error.error };
  if (error instanceof RateLimited) return { status: 429, error: v2Errors.rateLimited, retryAfter: error.retryAfterSeconds };
  if (error instanceof ServiceUnavailable) return { status: 503, error: v2Errors.temporary };
  if (error instanceof HttpError) {
    if (error.code === 'API_KEY_INVALID') return { status: 401, error: v2Errors.invalidKey };
    if (error.code === 'IDEMPOTENCY_KEY_REUSED') return { status: 409, error: v2Errors.idempotencyReused };
    if (error.code === 'IDEMPOTENCY_KEY_IN_PROGRESS') return { status: 409, error: v2Errors.idempotencyInProgress };
    const known = v2ErrorFor(error.code, {});
    if (known) return known;
    if (error.status < 500) return { status: error.status, error: v2Errors.incorrectRequest };
    return { status: error.status, error: v2Errors.temporary };
  }
  if (typeof error === 'object' && error !== null && 'type' in error) return { status: 400, error: v2Errors.incorrectRequest };
  return { status: 500, error: v2Errors.temporary };
}

/**
 * The panel-standard API v2 (`POST /api/v2`, form-encoded or JSON, fields `key` and `action`), so
 * resellers' existing tools work: services | add | status | balance. Every answer is JSON; errors
 * are `{ error: "…" }` with a fitting HTTP status (400 bad input, 401 bad key, 402 funds, 404 order,
 * 429 limit, 503 maintenance or a service down).
 */
export function v2Routes(app: Express, reseller: Reseller, fulfillment: ServiceClient): void {
  const router = express.Router();
  // Reseller tools also send multipart/form-data (text fields only) and GET query strings.
  const upload = multer({ limits: { fields: 50, fieldSize: 100_000, files: 0 } }).none();
  const multipart = (req: Request, res: Response, next: NextFunction) => upload(req, res, (error: unknown) => next(error === undefined ? undefined : new V2Error(400, v2Errors.incorrectRequest)));
  const handle = async (req: Request, res: Response) => {
    const source: unknown = req.method === 'GET' ? req.query : req.body;
    const body = (typeof source === 'object' && source !== null && !Array.isArray(source) ? source : {}) as Fields;
    if (unsafeText(body)) throw new V2Error(400, v2Errors.incorrectText);
    const ctx = callContext(req);
    const countRequest = (caller: { userId: string }) => reseller.limiter.take(caller.userId, (error) => req.log.warn({ err: error.message }, 'rate limit not counted: redis unavailable'));
    req.member = await reseller.keys.resolve(ctx, field(body, 'key'), countRequest).catch((error: unknown) => {
      if (error instanceof HttpError && error.code === 'API_KEY_INVALID') throw new V2Error(401, v2Errors.invalidKey);
      // The restriction's own Korean message (level, reason, end), in the v2 shape.
      if (error instanceof HttpError && (error.code === 'MEMBER_SUSPENDED' || error.code === 'MEMBER_BANNED')) throw new V2Error(403, error.message);
      throw error;
    });
    const caller = req.member;
    const member = callContext(req);

    // Only the documented actions (contracts' v2Actions, which GET /api/openapi.json lists) are answered.
    const action = field(body, 'action');
    if (!isV2Action(action)) throw new V2Error(400, v2Errors.incorrectRequest);
    switch (action) {
      case 'services': {
        // Rates per member (issue 40): `rate` is the price this key's member is charged. A subscription
        // no provider runs (its operator records its posts) can always be canceled: the unused posts go back at once.
        const [items, flags] = await Promise.all([reseller.catalogue.items(member).then((list) => reseller.prices.price(member, list)), productFlags(member, fulfillment)]);
        res.json(
          items.map((s) => ({ service: s.id, name: s.text, type: serviceTypeApiNames[s.type], category: s.category, rate: ratePer1000(s.unitPriceDeci, s.type), min: s.min, max: s.max, refill: flags.get(s.id)?.refill ?? false, cancel: flags.get(s.id)?.cancel ?? s.type === 'subscriptions', dripfeed: s.enableAuto })),
        );
        return;
      }
      case 'add': {
        const typed = { comments: body.comments, usernames: body.usernames, username: body.username, min: body.min, max: body.max, posts: body.posts, delay: body.delay, expiry: body.expiry };
        const parsed = orderBody.safeParse({ serviceId: body.service, link: body.link, amount: body.quantity, runs: body.runs, interval: body.interval, ...typed });
        if (!parsed.success) throw new V2Error(400, v2Errors.incorrectRequest);
        const input = parsed.data;
        if (typeof input.serviceId !== 'number' || !Number.isSafeInteger(input.serviceId) || input.serviceId < 1) throw new V2Error(400, v2Errors.incorrectServiceId);
        const serviceId = input.serviceId;
        // Custom Comments, Mentions Custom List and Package send no quantity (the standard's add); the others must.
        const listed = await reseller.catalogue.find(member, serviceId).catch(() => undefined);
        const needsQuantity = listed === undefined || typeTakesQuantity(listed.type);
        if (needsQuantity && (typeof input.amount !== 'number' || !Number.isSafeInteger(input.amount))) throw new V2Error(400, v2Errors.incorrectQuantity);
        // The key may also come as a form field, for tools that can set fields but not headers.
        const answer = await withIdempotency(req, res, reseller.idempotency, 'POST /api/v2 add', input, async (request) => {
          const placed = await placeOrder(reseller.order, member, input, 'api', reseller.orderWaitMs, request);
          if (placed.orderId !== undefined) return { status: 200, body: { order: placed.orderId } };
          const code = errorBody.safeParse(placed.body).data?.code;
          const service = await reseller.catalogue.find(member, serviceId).catch(() => undefined);
          const mapped = typeof code === 'string' ? v2ErrorFor(code, { min: service?.min, max: service?.max }) : undefined;
          return mapped ? { status: mapped.status, body: { error: mapped.error } } : { status: placed.status, body: { error: v2Errors.temporary } };
        }, field(body, 'idempotency_key'));
        retryLater(res, answer);
        res.status(answer.status).json(answer.body);
        return;
      }
      case 'status': {
        const many = field(body, 'orders');
        if (many !== undefined) {
          const parsed = parseOrderIds(many);
          if (parsed === null) throw new V2Error(400, v2Errors.incorrectRequest);
          const found = new Map<number, OrderView>();
          if (parsed.ids.length > 0) {
            const answer = await reseller.order.call(member, 'GET', '/orders', { query: new URLSearchParams({ userId: caller.userId, ids: parsed.ids.join(',') }) });
            if (answer.status !== 200) throw new HttpError(answer.status >= 500 ? 502 : answer.status, 'SERVICE_FAILED', v2Errors.temporary);
            for (const view of readAnswer(member, answer, orderList).items) found.set(view.id, view);
          }
          const result: Record<string, unknown> = {};
          for (const id of parsed.ids) {
            const view = found.get(id);
            result[String(id)] = view ? v2Status(view) : { error: v2Errors.incorrectOrderId };
          }
          for (const bad of parsed.bad) result[bad] = { error: v2Errors.incorrectOrderId };
          res.json(result);
          return;
        }
        const one = field(body, 'order');
        if (one === undefined || !/^[1-9]\d{0,14}$/.test(one)) throw new V2Error(one === undefined ? 400 : 404, one === undefined ? v2Errors.incorrectRequest : v2Errors.incorrectOrderId);
        const answer = await reseller.order.call(member, 'GET', `/orders/${one}`);
        if (answer.status === 404) throw new V2Error(404, v2Errors.incorrectOrderId);
        if (answer.status !== 200) throw new HttpError(answer.status >= 500 ? 502 : answer.status, 'SERVICE_FAILED', v2Errors.temporary);
        res.json(v2Status(readAnswer(member, answer, anyOrderView)));
        return;
      }
      case 'balance': {
        const answer = await reseller.wallet.call(member, 'GET', `/accounts/${encodeURIComponent(caller.userId)}`);
        // A brand-new member whose account wallet has not opened yet holds nothing.
        if (answer.status === 404) return void res.json({ balance: wonString(0), currency: 'KRW' });
        if (answer.status !== 200) throw new HttpError(502, 'SERVICE_FAILED', v2Errors.temporary);
        const { pointDeci } = readAnswer(member, answer, balance, v2Errors.temporary);
        res.json({ balance: wonString(pointDeci), currency: 'KRW' });
        return;
      }
      default: {
        const answer = await v2FulfillmentAction(action, body, member, fulfillment);
        if (answer === undefined) throw new V2Error(400, v2Errors.incorrectRequest);
        if (answer.retryAfter !== undefined) res.setHeader('retry-after', String(answer.retryAfter));
        res.status(answer.status).json(answer.body);
      }
    }
  };
  router.get('/', handle);
  router.post('/', express.urlencoded({ extended: false, limit: '100kb' }), multipart, handle);
  app.use('/api/v2', router);
  // Also catches the JSON parser's errors (malformed body) for this path: they answer in v2's shape.
  app.use('/api/v2', (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const answer = asV2Error(error);
    if (answer.status >= 500) req.log.error({ err: error }, 'v2 request failed');
    if (answer.retryAfter !== undefined) res.setHeader('retry-after', String(answer.retryAfter));
    res.status(answer.status).json({ error: answer.error });
  });
}
