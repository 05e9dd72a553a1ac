import { z } from 'zod';

/**
 * The public reseller API's surface, shared by the BFF (which answers only what is listed here) and
 * its OpenAPI document (GET /api/openapi.json), so a route or action cannot exist undocumented.
 */

/**
 * API v2's answer to a refill or cancel of an order this panel accepted a moment ago and is still
 * taking in (issue: cancel right after add): nothing was done, ask again. A panel reselling this
 * one reads it as "send the same request later", never as a refusal.
 */
export const v2OrderNotReady = 'Order is not ready yet, try again in a few seconds';

/** API v2 (panel standard) actions, in the order the document lists them. */
export const v2Actions = ['services', 'add', 'status', 'balance', 'refill', 'refill_status', 'cancel'] as const;
export type V2Action = (typeof v2Actions)[number];
export const isV2Action = (value: unknown): value is V2Action => typeof value === 'string' && (v2Actions as readonly string[]).includes(value);

/** The JSON reseller routes under /api (the `api-key` header), in OpenAPI path syntax. */
export const resellerJsonRoutes = [
  { method: 'get', path: '/api/services', summary: 'Orderable services' },
  { method: 'post', path: '/api/order', summary: 'Place an order (waits for the payment)' },
  { method: 'get', path: '/api/status/{wId}', summary: "One of the member's orders" },
  { method: 'post', path: '/api/refill/{wId}', summary: 'Ask for a refill of an order' },
  { method: 'get', path: '/api/refill/{id}', summary: 'One refill request' },
  { method: 'post', path: '/api/cancel/{wId}', summary: 'Cancel an order' },
] as const;

const key = z.string().min(1).describe("The member's API key (account page)");
const id = z.string().regex(/^[1-9]\d{0,14}$/);
const idList = z.string().describe('Comma-separated ids, 1 to 100');
const action = <A extends V2Action>(name: A, fields: z.ZodRawShape = {}) => z.object({ key, action: z.literal(name), ...fields });

/** The fields each v2 action reads (form-encoded, multipart, JSON or query string). */
export const v2Requests = {
  services: action('services'),
  add: action('add', {
    service: id.describe('Service id (`services`)'),
    link: z.string().max(2048),
    quantity: z.string().regex(/^\d+$/).optional().describe('Default and Comment Likes; Custom Comments and Mentions Custom List count their lines; a Package has none'),
    comments: z.string().max(200_000).optional().describe('Custom Comments: one comment per line (\\n or \\r\\n)'),
    usernames: z.string().max(200_000).optional().describe('Mentions Custom List: one username per line (or comma-separated)'),
    username: z.string().max(200).optional().describe("Comment Likes: the comment author's username"),
    runs: z.string().regex(/^\d+$/).optional().describe('Drip-feed runs'),
    interval: z.string().regex(/^\d+$/).optional().describe('Minutes between drip-feed runs'),
    idempotency_key: z.string().max(255).optional().describe('Same as the Idempotency-Key header'),
  }),
  status: action('status', { order: id.optional(), orders: idList.optional() }),
  balance: action('balance'),
  refill: action('refill', { order: id.optional(), orders: idList.optional() }),
  refill_status: action('refill_status', { refill: id.optional(), refills: idList.optional() }),
  cancel: action('cancel', { order: id.optional(), orders: idList.optional() }),
} satisfies Record<V2Action, z.ZodType>;

const orderStatus = z.object({ charge: z.string(), start_count: z.string(), status: z.string(), remains: z.string(), currency: z.literal('KRW') });
const v2Error = z.object({ error: z.string() });

/** What each v2 action answers on success (errors are always `{ error }`). */
export const v2Answers = {
  services: z.array(z.object({ service: z.number().int(), name: z.string(), type: z.string(), category: z.string(), rate: z.string(), min: z.number().int(), max: z.number().int(), refill: z.boolean(), cancel: z.boolean(), dripfeed: z.boolean() })),
  add: z.object({ order: z.number().int() }),
  status: z.union([orderStatus, z.record(z.string(), z.union([orderStatus, v2Error]))]),
  balance: z.object({ balance: z.string(), currency: z.literal('KRW') }),
  refill: z.union([z.object({ refill: z.string() }), z.array(z.object({ order: z.union([z.number(), z.string()]), refill: z.union([z.number(), v2Error]) }))]),
  refill_status: z.union([z.object({ status: z.string() }), z.array(z.object({ refill: z.union([z.number(), z.string()]), status: z.union([z.string(), v2Error]) }))]),
  cancel: z.array(z.object({ order: z.union([z.number(), z.string()]), cancel: z.union([z.literal(1), v2Error]) })),
} satisfies Record<V2Action, z.ZodType>;
export const v2ErrorAnswer = v2Error;

/** Example requests, one per action: the document shows them and the BFF's tests send them. */
export const v2Examples: Record<V2Action, Record<string, string>> = {
  services: { key: 'YOUR_API_KEY', action: 'services' },
  add: { key: 'YOUR_API_KEY', action: 'add', service: '1', link: 'https://www.instagram.com/p/example', quantity: '100' },
  status: { key: 'YOUR_API_KEY', action: 'status', order: '23501' },
  balance: { key: 'YOUR_API_KEY', action: 'balance' },
  refill: { key: 'YOUR_API_KEY', action: 'refill', order: '23501' },
  refill_status: { key: 'YOUR_API_KEY', action: 'refill_status', refill: '1' },
  cancel: { key: 'YOUR_API_KEY', action: 'cancel', orders: '23501,23502' },
};

/** JSON /api answers. */
export const resellerAnswers = {
  services: z.array(z.object({ id: z.number().int(), text: z.string(), min: z.number().int(), max: z.number().int(), point: z.number(), platform: z.string(), category: z.string(), enableAuto: z.boolean() })),
  order: z.object({ wId: z.number().int() }),
  status: z.object({ status: z.number().int().nullable().describe('Order status code (see API.md)'), remains: z.number().int() }),
  refill: z.object({ refill: z.number().int(), orderId: z.number().int(), status: z.string() }),
  cancel: z.object({ orderId: z.number().int(), cancel: z.enum(['canceled', 'requested']) }),
  error: z.object({ code: z.string(), message: z.string() }),
};
