import { createHash } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { type MassOrderAnswer, type MassOrderLineResult, massOrderLineKey, massOrderLineLimit, massOrderMessages } from '@smm/contracts';
import { anyOrderView } from '@smm/contracts/http';
import { HttpError, parseInput } from '@smm/platform';
import { messages } from '../messages.ts';
import { Idempotency, type StoredAnswer, requestHash } from '../reseller/idempotency.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { callContext, callerOf } from './context.ts';
import { webOrderBody } from './money-schemas.ts';
import { placeOrder } from './reseller-routes.ts';

const route = 'POST /api/service/mass-order';

/** One line as the web sends it: a single web order's body (the unit price it showed included), no runs. */
const massOrderBody = z.object(
  {
    lines: z
      .array(webOrderBody.omit({ runs: true, interval: true }), { error: messages.badRequest })
      .min(1, { error: massOrderMessages.noLines })
      .max(massOrderLineLimit, { error: massOrderMessages.tooManyLines }),
  },
  { error: messages.badRequest },
);
type MassLine = z.infer<typeof massOrderBody>['lines'][number];

/**
 * The request key of line `index` of a mass order: a space-led prefix no client key can have (client
 * keys are printable ASCII without spaces, like the BFF's own placement ids), the digest of the
 * batch's Idempotency-Key (so any valid key fits the order service's 255 characters) and the index.
 * The order service keeps it on the line's order under its unique index: a batch sent again under
 * the same key — a double click the Redis record did not catch, a retry after the answer was lost, a
 * BFF that crashed half-way — gets each placed line's own order back, never a second charge.
 */
const lineKey = (batchKey: string, index: number) => `bff-mass ${createHash('sha256').update(batchKey).digest('base64url')}#${index}`;

/** What a refusal answer says about a line (the order service's Korean message passes through). */
function refusalOf(answer: StoredAnswer): { code: string; message: string } {
  const body = answer.body as { code?: unknown; message?: unknown } | null;
  return {
    code: typeof body?.code === 'string' ? body.code : 'ORDER_FAILED',
    message: typeof body?.message === 'string' ? body.message : messages.upstreamFailed,
  };
}

/**
 * `POST /api/service/mass-order` (대량 주문): places each line as its own order, one after another
 * in the pasted order, each charged on its own by the wallet (never below zero). Once the wallet
 * refuses a line for want of points, the lines after it are not sent — the member is told why and
 * nothing is charged for them (a cheaper later line slipping through would make the result depend
 * on prices, not on the paste's order).
 *
 * Required `Idempotency-Key`: the whole answer is kept under it in Redis (a second press while the
 * first runs waits for it and gets the same answer), and each line goes to the order service under
 * its own key derived from it (lineKey), so a submit sent again after a lost connection places
 * every line at most once. When the order service could not be reached for a line, that line and
 * the rest answer `not_placed` with 503: not remembered, so the page sends the same key again.
 */
export function massOrderRoutes(router: Router, verifier: TokenVerifier, order: ServiceClient, idempotency: Idempotency, waitMs: number): void {
  const member = access(verifier, 'notGuest');

  router.post('/service/mass-order', member, async (req: Request, res: Response) => {
    const key = req.get('idempotency-key');
    if (key === undefined) throw new HttpError(400, 'IDEMPOTENCY_KEY_REQUIRED', messages.idempotencyKeyRequired);
    if (!Idempotency.validKey(key)) throw new HttpError(400, 'IDEMPOTENCY_KEY_INVALID', messages.idempotencyKeyInvalid);
    const { lines } = parseInput(massOrderBody, req.body ?? {});
    const seen = new Map<string, number>();
    lines.forEach((line, index) => {
      const same = massOrderLineKey(String(line.serviceId), line.link ?? '');
      const first = seen.get(same);
      if (first !== undefined) throw new HttpError(400, 'DUPLICATE_LINES', `${index + 1}번째 줄: ${massOrderMessages.duplicate(first + 1)}`);
      seen.set(same, index);
    });
    const ctx = callContext(req);
    const result = await idempotency.run(callerOf(req).userId, key, requestHash(route, lines), () => placeLines(order, ctx, lines, key, waitMs));
    if (result.replayed) res.setHeader('idempotent-replayed', 'true');
    res.status(result.status).json(result.body);
  });
}

async function placeLines(order: ServiceClient, ctx: ReturnType<typeof callContext>, lines: MassLine[], batchKey: string, waitMs: number): Promise<StoredAnswer> {
  const results: MassOrderLineResult[] = [];
  let stop: { code: string; message: string } | null = null;
  let unknown = false;
  for (const [index, line] of lines.entries()) {
    if (stop) {
      results.push({ index, status: 'not_placed', ...stop });
      continue;
    }
    const request = { key: lineKey(batchKey, index), hash: requestHash(`${route}#line`, line) };
    let answer: StoredAnswer & { orderId?: number };
    try {
      answer = await placeOrder(order, ctx, line, 'web', waitMs, request);
    } catch (error) {
      // The order service could not be asked what became of this line (placeOrder already retried):
      // its outcome is unknown, so nothing after it is sent and the answer is not remembered.
      if (!(error instanceof HttpError) || error.status < 500) throw error;
      ctx.log.error({ index, err: error.message }, 'mass order: a line could not be placed');
      unknown = true;
      stop = { code: 'SERVICE_UNAVAILABLE', message: messages.massOrderUnknown };
      results.push({ index, status: 'not_placed', ...stop });
      continue;
    }
    if (answer.status === 201 && answer.orderId !== undefined) {
      const view = anyOrderView.safeParse((answer.body as { order?: unknown } | null)?.order);
      results.push({ index, status: 'placed', orderId: answer.orderId, chargeDeci: view.success ? view.data.pointDeci : 0 });
      continue;
    }
    const refusal = refusalOf(answer);
    results.push({ index, status: 'refused', ...refusal });
    if (answer.status === 402) stop = { code: 'INSUFFICIENT_POINTS', message: messages.massOrderBalanceShort };
    else if (answer.status >= 500 && refusal.code !== 'PAYMENT_TIMEOUT' && refusal.code !== 'SERVICE_CHECK') {
      unknown = true;
      stop = { code: 'SERVICE_UNAVAILABLE', message: messages.massOrderUnknown };
    }
  }
  const placed = results.filter((r) => r.status === 'placed');
  const body: MassOrderAnswer = { results, placed: placed.length, chargedDeci: placed.reduce((sum, r) => sum + r.chargeDeci, 0) };
  ctx.log.info({ lines: lines.length, placed: body.placed, chargedDeci: body.chargedDeci, unknown }, 'mass order placed');
  // 503 is not kept by the idempotency record: the same key sent again finishes the batch, the
  // lines already placed answering with their own orders.
  return { status: unknown ? 503 : 200, body: unknown ? { code: 'SERVICE_UNAVAILABLE', message: messages.massOrderUnknown, ...body } : body };
}
