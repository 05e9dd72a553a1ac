import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, call, opsToken, startHarness } from './support/harness.ts';
import { orderViewBody, platformViewBody } from './support/service-bodies.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ reseller: { ratePerMinute: 8, apiKeyCacheSeconds: 60, catalogueCacheMs: 0, orderWaitMs: 1234 } });
});
afterAll(() => h.stop());
beforeEach(async () => {
  for (const fake of [h.auth, h.catalog, h.wallet, h.order]) fake.reset();
  await h.redis.flushall();
});

const services = [
  { id: 1, text: '인스타그램 한국인 좋아요', categoryId: 10, platformId: 1, min: 10, max: 10000, point: 2.5, unitPriceDeci: 25, notice: '', enableAuto: true, isReadOnly: false },
  { id: 2, text: '유튜브 조회수', categoryId: 20, platformId: 2, min: 100, max: 30000, point: 1, unitPriceDeci: 10, notice: '', enableAuto: false, isReadOnly: false },
];
function catalogue() {
  h.catalog.on('GET /services', { body: services });
  h.catalog.on('GET /categories', { body: [{ id: 10, text: '좋아요', platform: 1, platformId: 1 }, { id: 20, text: '조회수', platform: 2, platformId: 2 }] });
  h.catalog.on('GET /platforms', { body: [platformViewBody({ id: 1, text: '인스타그램' }), platformViewBody({ id: 2, text: '유튜브' })] });
}
/** auth knows exactly these keys. */
function keys(known: Record<string, string>) {
  h.auth.on('POST /api-keys/resolve', (req) => {
    const key = (req.body as { apiKey: string }).apiKey;
    const userId = known[key];
    return userId ? { body: { userId, loginId: `login-${userId}`, role: 'member' } } : { status: 404, body: { code: 'API_KEY_INVALID', message: 'x' } };
  });
}
/** The placement id the BFF gives a placement sent without an Idempotency-Key (issue 39 §7). */
const placementId = { key: expect.stringMatching(/^bff-placement [\w-]{36}$/), hash: 'placement-id' };
const placed = (id: number) => ({ status: 201, body: { outcome: 'accepted', order: orderViewBody({ id, status: 0 }) } });

describe('member money routes', () => {
  it('refuses guests and bad tokens before any service sees the request', async () => {
    const guest = await call(h.url, 'POST', '/api/service/order', { body: { serviceId: 1, link: 'x', amount: 10 } });
    expect(guest.status).toBe(401);
    expect(guest.body.code).toBe('GUEST_NOT_ALLOWED');
    expect((await call(h.url, 'GET', '/api/service/point-history', { token: 'garbage' })).body.code).toBe('TOKEN_INVALID');
    expect(h.order.requests).toEqual([]);
  });

  it('places an order with waitMs, the member and source web, and passes the answer on', async () => {
    h.order.on('POST /orders', placed(7));
    const res = await call(h.url, 'POST', '/api/service/order', { token: h.keys.member(), body: { serviceId: '1', link: 'kim', amount: 10, runs: null, interval: null } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(placed(7).body);
    const sent = h.order.calls('POST /orders')[0]!;
    expect(sent.query.get('waitMs')).toBe('1234');
    expect(sent.caller?.userId).toBe('member-1');
    // Without an Idempotency-Key the placement goes under a placement id chosen here (issue 39 §7).
    expect(sent.body).toEqual({ serviceId: 1, link: 'kim', amount: 10, source: 'web', request: placementId });
  });

  it('passes order service refusals through unchanged, and 400s on wrong types', async () => {
    h.order.on('POST /orders', { status: 402, body: { code: 'INSUFFICIENT_POINTS', message: '포인트가 부족합니다.', orderId: 9 } });
    const poor = await call(h.url, 'POST', '/api/service/order', { token: h.keys.member(), body: { serviceId: 1, link: 'x', amount: 10 } });
    expect(poor.status).toBe(402);
    expect(poor.body).toEqual({ code: 'INSUFFICIENT_POINTS', message: '포인트가 부족합니다.', orderId: 9 });
    const wrong = await call(h.url, 'POST', '/api/service/order', { token: h.keys.member(), body: { serviceId: { a: 1 }, link: 'x', amount: 10 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('VALIDATION_FAILED');
  });

  it('places a web order once per Idempotency-Key: 20 concurrent requests, one order, the same answer', async () => {
    let next = 300;
    h.order.on('POST /orders', () => ({ ...placed(next++), delayMs: 150 }));
    const body = { serviceId: 1, link: 'https://x', amount: 10 };
    const headers = { 'idempotency-key': 'web-k-1' };
    const burst = await Promise.all(Array.from({ length: 20 }, () => call(h.url, 'POST', '/api/service/order', { token: h.keys.member(), headers, body })));
    expect(h.order.calls('POST /orders')).toHaveLength(1);
    expect(burst.map((r) => [r.status, r.body])).toEqual(Array.from({ length: 20 }, () => [201, placed(300).body]));
    expect(burst.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    const other = await call(h.url, 'POST', '/api/service/order', { token: h.keys.member(), headers, body: { ...body, amount: 11 } });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const bad = await call(h.url, 'POST', '/api/service/order', { token: h.keys.member(), headers: { 'idempotency-key': 'has space' }, body });
    expect(bad.body.code).toBe('IDEMPOTENCY_KEY_INVALID');
    expect(h.order.calls('POST /orders')).toHaveLength(1);
  });

  it('hands the Idempotency-Key and the request hash to the order service, so a retry after a lost answer reaches the order placed first', async () => {
    // The order service failed (500) and, asked, holds no order under the key: a temporary 503, never a 500.
    h.order.on('POST /orders', { status: 500, body: { code: 'INTERNAL', message: 'x' } });
    h.order.on('POST /orders/placement', { status: 404, body: { code: 'PLACEMENT_NOT_FOUND', message: 'x' } });
    const headers = { 'idempotency-key': 'web-k-3' };
    const body = { serviceId: 1, link: 'https://x', amount: 10 };
    expect((await call(h.url, 'POST', '/api/service/order', { token: h.keys.member(), headers, body })).status).toBe(503);
    expect((h.order.calls('POST /orders/placement')[0]!.body as { request: { key: string } }).request.key).toBe('web-k-3');
    h.order.on('POST /orders', placed(14));
    expect((await call(h.url, 'POST', '/api/service/order', { token: h.keys.member(), headers, body })).status).toBe(201);
    await call(h.url, 'POST', '/api/service/order', { token: h.keys.member(), headers: { 'idempotency-key': 'web-k-4' }, body: { ...body, amount: 11 } });
    const sent = h.order.calls('POST /orders').map((c) => (c.body as { request?: { key: string; hash: string } }).request);
    expect(sent.map((r) => r?.key)).toEqual(['web-k-3', 'web-k-3', 'web-k-4']);
    expect(sent[1]!.hash).toBe(sent[0]!.hash);
    expect(sent[2]!.hash).not.toBe(sent[0]!.hash);
    expect(sent[0]!.hash).toMatch(/^[\w-]{43}$/);
  });

  it('after a failed placement call asks the order service by the placement id and answers the truth: the order if it was paid, the refusal if not', async () => {
    const body = { serviceId: 1, link: 'https://x', amount: 10 };
    // The order was stored and paid, but the call failed (the service died before answering).
    h.order.on('POST /orders', { status: 500, body: { code: 'INTERNAL', message: 'x' } });
    h.order.on('POST /orders/placement', placed(21));
    const paid = await call(h.url, 'POST', '/api/service/order', { token: h.keys.member(), body });
    expect(paid.status).toBe(201);
    expect(paid.body).toEqual(placed(21).body);
    const [sent] = h.order.calls('POST /orders');
    const [asked] = h.order.calls('POST /orders/placement');
    expect((asked!.body as { request: unknown }).request).toEqual((sent!.body as { request: unknown }).request);
    expect(asked!.caller?.userId).toBe('member-1');
    // Refused by the wallet: the refusal, as the placement would have answered it.
    h.order.on('POST /orders/placement', { status: 402, body: { code: 'INSUFFICIENT_POINTS', message: '포인트가 부족합니다.', orderId: 22 } });
    expect((await call(h.url, 'POST', '/api/service/order', { token: h.keys.member(), body })).status).toBe(402);
  });

  it('says so when the wallet did not confirm in time: 503 PAYMENT_TIMEOUT with Retry-After, and a retry with the key places again', async () => {
    const timedOut = { status: 503, body: { code: 'PAYMENT_TIMEOUT', message: '결제 확인이 늦어져 주문이 접수되지 않았습니다.', orderId: 12 } };
    h.order.on('POST /orders', timedOut);
    const headers = { 'idempotency-key': 'web-k-2' };
    const body = { serviceId: 1, link: 'https://x', amount: 10 };
    const res = await call(h.url, 'POST', '/api/service/order', { token: h.keys.member(), headers, body });
    expect(res.status).toBe(503);
    expect(res.body).toEqual(timedOut.body);
    expect(res.headers.get('retry-after')).toBe('1');
    h.order.on('POST /orders', placed(13));
    expect((await call(h.url, 'POST', '/api/service/order', { token: h.keys.member(), headers, body })).status).toBe(201);
    expect(h.order.calls('POST /orders')).toHaveLength(2);
  });

  it('lists with the caller as userId and checks paging', async () => {
    h.order.on('GET /orders', { body: { items: [], page: 2, pageSize: 5, hasNext: false } });
    const res = await call(h.url, 'GET', '/api/service/order-history?page=2&pageSize=5&status=3&userId=someone-else', { token: h.keys.member() });
    expect(res.status).toBe(200);
    const sent = h.order.calls('GET /orders')[0]!;
    expect(Object.fromEntries(sent.query)).toEqual({ userId: 'member-1', page: '2', pageSize: '5', status: '3' });
    for (const bad of ['page=0', 'pageSize=101', 'status=9', 'page=abc']) {
      expect((await call(h.url, 'GET', `/api/service/order-history?${bad}`, { token: h.keys.member() })).status, bad).toBe(400);
    }
  });

  it('answers 503 SERVICE_UNAVAILABLE on order routes while ORDER_SERVICE_URL is unset', async () => {
    const alone = await startHarness({ withoutOrder: true });
    try {
      const res = await call(alone.url, 'POST', '/api/service/order', { token: alone.keys.member(), body: { serviceId: 1, link: 'x', amount: 10 } });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
      expect((await call(alone.url, 'GET', '/readyz', { token: opsToken })).body.checks).not.toHaveProperty('order');
    } finally {
      await alone.stop();
    }
  });

  it('sends top-ups to wallet and admin actions with the admin role', async () => {
    h.wallet.on('POST /top-ups', { status: 201, body: { id: 3, status: 0 } });
    h.wallet.on('POST /admin/top-ups/3/approve', { body: { id: 3, status: 1 } });
    const asked = await call(h.url, 'POST', '/api/service/point', { token: h.keys.member(), body: { name: '김', point: 5000, feeType: 'none', feeValue: null } });
    expect(asked.status).toBe(201);
    expect(h.wallet.calls('POST /top-ups')[0]!.body).toEqual({ name: '김', point: 5000, feeType: 'none', feeValue: null });
    expect((await call(h.url, 'POST', '/api/admin/top-ups/3/approve', { token: h.keys.member() })).status).toBe(403);
    const approved = await call(h.url, 'POST', '/api/admin/top-ups/3/approve', { token: h.keys.admin() });
    expect(approved.body).toEqual({ id: 3, status: 1 });
    expect(h.wallet.calls('POST /admin/top-ups/3/approve')[0]!.caller?.role).toBe('admin');
  });
});

describe('public reseller API', () => {
  it('answers 401 API_KEY_INVALID for a missing or unknown key', async () => {
    keys({ 'key-a': 'user-a' });
    for (const headers of [{}, { 'api-key': 'nope' }, { 'api-key': '' }] as Array<Record<string, string>>) {
      const res = await call(h.url, 'GET', '/api/services', { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'API_KEY_INVALID', message: 'API 키가 올바르지 않습니다.' });
    }
  });

  it('lists services with category and platform names', async () => {
    keys({ 'key-a': 'user-a' });
    catalogue();
    const res = await call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-a' } });
    expect(res.body).toEqual([
      { id: 1, text: '인스타그램 한국인 좋아요', min: 10, max: 10000, point: 2.5, platform: '인스타그램', category: '좋아요', enableAuto: true },
      { id: 2, text: '유튜브 조회수', min: 100, max: 30000, point: 1, platform: '유튜브', category: '조회수', enableAuto: false },
    ]);
  });

  it('caches key resolutions but drops them at once when the key is rotated through the BFF', async () => {
    keys({ 'key-old': 'member-1' });
    catalogue();
    for (let i = 0; i < 3; i++) expect((await call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-old' } })).status).toBe(200);
    expect(h.auth.calls('POST /api-keys/resolve')).toHaveLength(1);
    // auth rotates: the old key is unknown there now
    keys({ 'key-new': 'member-1' });
    h.auth.on('POST /members/me/api-key', { status: 201, body: { apiKey: 'key-new', apiKeyPrefix: 'smm_new' } });
    expect((await call(h.url, 'POST', '/api/auth/api-key', { token: h.keys.member() })).status).toBe(201);
    expect((await call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-old' } })).status).toBe(401);
    expect((await call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-new' } })).status).toBe(200);
  });

  it('refuses a rotated key at once on a replica that kept its resolution in memory', async () => {
    keys({ 'key-old': 'member-1' });
    catalogue();
    const other = await h.replica();
    for (let i = 0; i < 3; i++) expect((await call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-old' } })).status).toBe(200);
    expect(h.auth.calls('POST /api-keys/resolve')).toHaveLength(1);
    keys({ 'key-new': 'member-1' });
    h.auth.on('POST /members/me/api-key', { status: 201, body: { apiKey: 'key-new', apiKeyPrefix: 'smm_new' } });
    // rotated through the other replica: this one learns it only from Redis
    expect((await call(other, 'POST', '/api/auth/api-key', { token: h.keys.member() })).status).toBe(201);
    expect((await call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-old' } })).status).toBe(401);
    expect((await call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-new' } })).status).toBe(200);
  });

  it('trusts no resolution kept in memory once Redis lost its data (counter and rotation marks with it)', async () => {
    keys({ 'key-old': 'member-1' });
    catalogue();
    await h.redis.set('bff:apikey:rotations', '5'); // other members rotated before
    for (let i = 0; i < 3; i++) expect((await call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-old' } })).status).toBe(200);
    expect(h.auth.calls('POST /api-keys/resolve')).toHaveLength(1);
    await h.redis.flushall(); // a Redis restart without persistence
    keys({ 'key-new': 'member-1' });
    h.auth.on('POST /members/me/api-key', { status: 201, body: { apiKey: 'key-new', apiKeyPrefix: 'smm_new' } });
    // the mark the rotation writes now (1) is below the counter the kept resolution was read at (5)
    expect((await call(h.url, 'POST', '/api/auth/api-key', { token: h.keys.member() })).status).toBe(201);
    expect((await call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-old' } })).status).toBe(401);
  });

  it('places orders as the key owner and answers {wId}', async () => {
    keys({ 'key-a': 'user-a' });
    h.order.on('POST /orders', placed(41));
    const res = await call(h.url, 'POST', '/api/order', { headers: { 'api-key': 'key-a' }, body: { serviceId: 1, link: 'https://x', amount: 10 } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ wId: 41 });
    const sent = h.order.calls('POST /orders')[0]!;
    expect(sent.caller).toEqual({ service: 'bff', userId: 'user-a', role: 'member' });
    expect(sent.body).toEqual({ serviceId: 1, link: 'https://x', amount: 10, source: 'api', request: placementId });
  });

  it('replays an Idempotency-Key answer, refuses it for another body, and places a concurrent burst once', async () => {
    keys({ 'key-a': 'user-a' });
    let next = 100;
    h.order.on('POST /orders', () => ({ ...placed(next++), delayMs: 150 }));
    const body = { serviceId: 1, link: 'https://x', amount: 10 };
    const headers = { 'api-key': 'key-a', 'idempotency-key': 'k-1' };
    const burst = await Promise.all(Array.from({ length: 4 }, () => call(h.url, 'POST', '/api/order', { headers, body })));
    expect(burst.map((r) => r.body)).toEqual(Array.from({ length: 4 }, () => ({ wId: 100 })));
    expect(h.order.calls('POST /orders')).toHaveLength(1);
    expect(burst.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(3);
    const other = await call(h.url, 'POST', '/api/order', { headers, body: { ...body, amount: 11 } });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('answers wId only for a paid order; a given-up one is 503 PAYMENT_TIMEOUT and its status reads canceled', async () => {
    keys({ 'key-a': 'user-a' });
    h.order.on('POST /orders', { status: 503, body: { code: 'PAYMENT_TIMEOUT', message: '…', orderId: 21 } });
    const res = await call(h.url, 'POST', '/api/order', { headers: { 'api-key': 'key-a' }, body: { serviceId: 1, link: 'https://x', amount: 10 } });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'PAYMENT_TIMEOUT', orderId: 21 });
    expect(res.body).not.toHaveProperty('wId');
    expect(res.headers.get('retry-after')).toBe('1');
    h.order.on('GET /orders/21', { body: orderViewBody({ id: 21, status: null, payment: 'rejected', amount: 10, remains: 10 }) });
    expect((await call(h.url, 'GET', '/api/status/21', { headers: { 'api-key': 'key-a' } })).body).toEqual({ status: 5, remains: 10 });
    h.order.on('GET /orders/22', { body: orderViewBody({ id: 22, status: null, payment: 'awaiting_payment', amount: 10, remains: 10 }) });
    expect((await call(h.url, 'GET', '/api/status/22', { headers: { 'api-key': 'key-a' } })).body).toEqual({ status: null, remains: 10 });
  });

  it('rate-limits per key owner with 429 RATE_LIMITED and Retry-After', async () => {
    keys({ 'key-a': 'user-a', 'key-b': 'user-b' });
    catalogue();
    const statuses = [];
    for (let i = 0; i < 9; i++) statuses.push((await call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-a' } })).status);
    expect(statuses).toEqual([...Array.from({ length: 8 }, () => 200), 429]);
    const limited = await call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-a' } });
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-b' } })).status).toBe(200);
    // Each window's count expires with its window (plus a second), never lingers.
    const windows = await h.redis.keys('bff:rate:user-a:*');
    expect(windows.length).toBeGreaterThanOrEqual(1);
    for (const key of windows) {
      const ttl = await h.redis.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(61_000);
    }
  });
});

describe('API v2', () => {
  const form = (fields: Record<string, string>) =>
    fetch(`${h.url}/api/v2`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

  it('answers errors in the panel shape', async () => {
    keys({ 'key-a': 'user-a' });
    expect(await form({ key: 'nope', action: 'balance' })).toEqual({ status: 401, body: { error: 'Invalid API key' } });
    expect(await form({ action: 'balance' })).toEqual({ status: 401, body: { error: 'Invalid API key' } });
    expect(await form({ key: 'key-a' })).toEqual({ status: 400, body: { error: 'Incorrect request' } });
    expect(await form({ key: 'key-a', action: 'dance' })).toEqual({ status: 400, body: { error: 'Incorrect request' } });
    const malformed = await fetch(`${h.url}/api/v2`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"key":' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: 'Incorrect request' });
  });

  it('lists services with rates per 1,000 and balance as strings', async () => {
    keys({ 'key-a': 'user-a' });
    catalogue();
    h.wallet.on('GET /accounts/user-a', { body: { userId: 'user-a', point: 1234.5, pointDeci: 12345 } });
    const list = await form({ key: 'key-a', action: 'services' });
    expect(list.body).toEqual([
      { service: 1, name: '인스타그램 한국인 좋아요', type: 'Default', category: '좋아요', rate: '2500.0', min: 10, max: 10000, refill: false, cancel: false, dripfeed: true },
      { service: 2, name: '유튜브 조회수', type: 'Default', category: '조회수', rate: '1000.0', min: 100, max: 30000, refill: false, cancel: false, dripfeed: false },
    ]);
    expect((await form({ key: 'key-a', action: 'balance' })).body).toEqual({ balance: '1234.5', currency: 'KRW' });
  });

  it('adds orders (drip-feed with runs and interval) and maps refusals to panel errors', async () => {
    keys({ 'key-a': 'user-a' });
    catalogue();
    h.order.on('POST /orders', placed(55));
    expect(await form({ key: 'key-a', action: 'add', service: '1', link: 'https://x', quantity: '10', runs: '3', interval: '60' })).toEqual({ status: 200, body: { order: 55 } });
    expect(h.order.calls('POST /orders')[0]!.body).toEqual({ serviceId: 1, link: 'https://x', amount: 10, runs: 3, interval: 60, source: 'api', request: placementId });
    const refusals: Array<[number, string, string]> = [
      [402, 'INSUFFICIENT_POINTS', 'Not enough funds on balance'],
      [400, 'SERVICE_REQUIRED', 'Incorrect service ID'],
      [400, 'AMOUNT_BELOW_MIN', 'Quantity less than minimal 10'],
      [400, 'AMOUNT_ABOVE_MAX', 'Quantity more than maximal 10000'],
    ];
    for (const [status, code, error] of refusals) {
      h.order.on('POST /orders', { status, body: { code, message: '…' } });
      expect(await form({ key: 'key-a', action: 'add', service: '1', link: 'https://x', quantity: '5' })).toEqual({ status, body: { error } });
    }
    h.order.on('POST /orders', { status: 503, body: { code: 'PAYMENT_TIMEOUT', message: '…', orderId: 77 } });
    const late = await fetch(`${h.url}/api/v2`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ key: 'key-a', action: 'add', service: '1', link: 'https://x', quantity: '10' }) });
    expect([late.status, await late.json(), late.headers.get('retry-after')]).toEqual([503, { error: 'Order not placed: payment was not confirmed in time, try again' }, '1']);
    expect(await form({ key: 'key-a', action: 'add', service: 'abc', link: 'x', quantity: '5' })).toEqual({ status: 400, body: { error: 'Incorrect service ID' } });
    expect(await form({ key: 'key-a', action: 'add', service: '1', link: 'x', quantity: 'lots' })).toEqual({ status: 400, body: { error: 'Incorrect quantity' } });
  });

  it('places an add once per Idempotency-Key, sent as the header (a reselling panel) or as the idempotency_key field', async () => {
    keys({ 'key-a': 'user-a' });
    catalogue();
    let next = 300;
    h.order.on('POST /orders', () => placed(next++));
    const fields = { key: 'key-a', action: 'add', service: '1', link: 'https://x/keyed', quantity: '10' };
    const withHeader = (key: string) =>
      fetch(`${h.url}/api/v2`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': key }, body: new URLSearchParams(fields) }).then(async (r) => ({ status: r.status, body: (await r.json()) as unknown, replayed: r.headers.get('idempotent-replayed') }));
    const first = await withHeader('fwd-1-abc');
    expect(first).toEqual({ status: 200, body: { order: 300 }, replayed: null });
    // The same key again — a reseller that lost the first answer: the same order, none placed.
    expect(await withHeader('fwd-1-abc')).toEqual({ status: 200, body: { order: 300 }, replayed: 'true' });
    expect(await form({ ...fields, idempotency_key: 'fwd-1-abc' })).toEqual({ status: 200, body: { order: 300 } });
    expect(await form({ ...fields, idempotency_key: 'field-2' })).toEqual({ status: 200, body: { order: 301 } });
    expect(await form({ ...fields, idempotency_key: 'field-2' })).toEqual({ status: 200, body: { order: 301 } });
    expect(h.order.calls('POST /orders')).toHaveLength(2);
    // Without a key every add is its own order (backwards compatible).
    expect(await form(fields)).toEqual({ status: 200, body: { order: 302 } });
    expect(await form({ ...fields, quantity: '11', idempotency_key: 'field-2' })).toEqual({ status: 409, body: { error: 'Idempotency-Key was already used with another request' } });
    // The key reached the order service with the add; one it holds for another request (this BFF kept no answer) is refused the same way.
    expect((h.order.calls('POST /orders')[1]!.body as { request?: { key: string } }).request?.key).toBe('field-2');
    h.order.on('POST /orders', { status: 409, body: { code: 'IDEMPOTENCY_KEY_REUSED', message: '이미 다른 요청에 사용된 Idempotency-Key입니다.' } });
    expect(await form({ ...fields, quantity: '12', idempotency_key: 'field-3' })).toEqual({ status: 409, body: { error: 'Idempotency-Key was already used with another request' } });
  });

  it('answers status for one order and for many, bad ids as Incorrect order ID', async () => {
    keys({ 'key-a': 'user-a' });
    h.order.on('GET /orders/5', { body: orderViewBody({ id: 5, status: 3, pointDeci: 255, startCount: 120, remains: 4, amount: 10 }) });
    expect((await form({ key: 'key-a', action: 'status', order: '5' })).body).toEqual({ charge: '25.5', start_count: '120', status: 'Partial', remains: '4', currency: 'KRW' });
    expect(await form({ key: 'key-a', action: 'status', order: '6' })).toEqual({ status: 404, body: { error: 'Incorrect order ID' } });
    h.order.on('GET /orders', { body: { items: [orderViewBody({ id: 5, status: 2, pointDeci: 250, startCount: null, remains: 0, amount: 10 })] } });
    const many = await form({ key: 'key-a', action: 'status', orders: '5,6,x' });
    expect(many.body).toEqual({
      '5': { charge: '25.0', start_count: '0', status: 'Completed', remains: '0', currency: 'KRW' },
      '6': { error: 'Incorrect order ID' },
      x: { error: 'Incorrect order ID' },
    });
    expect(Object.fromEntries(h.order.calls('GET /orders')[0]!.query)).toEqual({ userId: 'user-a', ids: '5,6' });
  });
});

// Last in the file: it stops this file's Redis.
describe('reseller API without Redis', () => {
  it('still serves a key this BFF kept in memory, asking auth again since the rotation mark cannot be read', async () => {
    keys({ 'key-a': 'user-a' });
    catalogue();
    for (let i = 0; i < 3; i++) expect((await call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-a' } })).status).toBe(200);
    expect(h.auth.calls('POST /api-keys/resolve')).toHaveLength(1);
    await h.embeddedRedis.close();
    const res = await call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-a' } });
    expect(res.status).toBe(200);
    expect(h.auth.calls('POST /api-keys/resolve')).toHaveLength(2);
    keys({});
    expect((await call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-a' } })).status).toBe(401);
  });
});

describe('rates per member (issue 40)', () => {
  /** The order service's rate store says: user-r pays 20 % less on everything, 0.7 won for product 2. */
  function rates() {
    h.order.on('GET /rates', (req) => ({
      body: {
        userId: req.caller?.userId ?? '',
        items:
          req.caller?.userId === 'user-r'
            ? [
                { serviceId: null, serviceText: null, discountPercent: 20, unitPriceDeci: null, unitPrice: null, updatedAt: '2026-12-06T07:00:00.000Z', updatedBy: 'admin-1' },
                { serviceId: 2, serviceText: '유튜브 조회수', discountPercent: null, unitPriceDeci: 7, unitPrice: 0.7, updatedAt: '2026-12-06T07:00:00.000Z', updatedBy: 'admin-1' },
              ]
            : [],
      },
    }));
  }

  it("prices the catalogue, /api/services and v2 services with the calling member's rates; guests and others see the catalogue's", async () => {
    catalogue();
    rates();
    keys({ 'key-r': 'user-r', 'key-a': 'user-a' });
    const mine = await call(h.url, 'GET', '/api/service/services', { token: h.keys.member('user-r') });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('vary')).toMatch(/authorization/i);
    expect((mine.body as unknown as Array<Record<string, unknown>>).map((s) => [s.id, s.point, s.unitPriceDeci, s.listPoint, s.listUnitPriceDeci])).toEqual([
      [1, 2, 20, 2.5, 25],
      [2, 0.7, 7, 1, 10],
    ]);
    expect(h.order.calls('GET /rates').at(-1)?.caller).toMatchObject({ userId: 'user-r', role: 'member' });
    const guest = await call(h.url, 'GET', '/api/service/services');
    expect(guest.body).toEqual(services);
    expect((await call(h.url, 'GET', '/api/service/services', { token: h.keys.member('user-a') })).body).toEqual(services);
    // A token that no longer holds: 401, so the app renews it rather than show the wrong prices.
    expect((await call(h.url, 'GET', '/api/service/services', { token: 'not-a-token' })).status).toBe(401);

    expect((await call(h.url, 'GET', '/api/services', { headers: { 'api-key': 'key-r' } })).body).toEqual([
      expect.objectContaining({ id: 1, point: 2 }),
      expect.objectContaining({ id: 2, point: 0.7 }),
    ]);
    const v2 = await fetch(`${h.url}/api/v2`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'key=key-r&action=services' });
    expect(((await v2.json()) as Array<{ service: number; rate: string }>).map((s) => [s.service, s.rate])).toEqual([
      [1, '2000.0'],
      [2, '700.0'],
    ]);
  });

  it('sends rate changes to the order service only for admins and known members; staff and members are refused before', async () => {
    h.auth.on('GET /admin/members/user-r', { body: { userId: 'user-r' } });
    h.auth.on('GET /admin/members/ghost', { status: 404, body: { code: 'MEMBER_NOT_FOUND', message: '회원 정보를 찾을 수 없습니다.' } });
    h.order.on('PUT /admin/rates/user-r', (req) => ({ body: { userId: 'user-r', items: [], sent: req.body } }));
    const admin = h.keys.admin();
    const put = await call(h.url, 'PUT', '/api/admin/members/user-r/rates', { token: admin, body: { serviceId: 2, unitPrice: '0.7', extra: 1 } });
    expect(put.status).toBe(200);
    expect(h.order.calls('PUT /admin/rates/user-r')[0]).toMatchObject({ caller: { userId: 'admin-1', role: 'admin' }, body: { serviceId: 2, unitPrice: '0.7' } });
    expect((await call(h.url, 'PUT', '/api/admin/members/ghost/rates', { token: admin, body: { discountPercent: 10 } })).status).toBe(404);
    for (const token of [h.keys.staff(), h.keys.member()]) {
      const res = await call(h.url, 'PUT', '/api/admin/members/user-r/rates', { token, body: { discountPercent: 10 } });
      expect([res.status, res.body.code]).toEqual([403, 'ADMIN_ONLY']);
      expect((await call(h.url, 'DELETE', '/api/admin/members/user-r/rates/all', { token })).status).toBe(403);
    }
    expect((await call(h.url, 'DELETE', '/api/admin/members/user-r/rates/..%2Fx', { token: admin })).status).toBe(404);
    expect(h.order.calls('PUT /admin/rates/user-r')).toHaveLength(1);
  });
});
