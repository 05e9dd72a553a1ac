import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@smm/testkit';
import { api, stack } from './support/client.ts';
import { type Member, apiKeyOf, keyed, member, orderServiceUp, pointDeciOf, product, sleep, v2 } from './support/money.ts';
import { moneyEnv } from './global-setup.ts';

const invalidKey = { code: 'API_KEY_INVALID', message: 'API 키가 올바르지 않습니다.' };

describe.runIf(orderServiceUp())('public reseller API (api-key header)', () => {
  let m: Member;
  let key: string;
  let p: Awaited<ReturnType<typeof product>>;
  beforeAll(async () => {
    m = await member(10_000);
    key = await apiKeyOf(m);
    p = await product({ min: 10, max: 20_000, point: 2.5, enableAuto: true }, m);
  });

  it('refuses a missing or unknown key, and an old key at once after a rotation', async () => {
    expect(await keyed('GET', '/services', undefined)).toMatchObject({ status: 401, body: invalidKey });
    expect(await keyed('GET', '/services', 'smm_not-a-real-key')).toMatchObject({ status: 401, body: invalidKey });
    expect((await keyed('POST', '/order', 'smm_nope', { body: { serviceId: p.id, link: 'x', amount: 10 } })).status).toBe(401);
    const other = await member();
    const oldKey = await apiKeyOf(other);
    expect((await keyed('GET', '/services', oldKey)).status).toBe(200);
    expect((await keyed('GET', '/services', oldKey)).status).toBe(200); // now from the BFF's cache
    const newKey = await apiKeyOf(other);
    expect(await keyed('GET', '/services', oldKey)).toMatchObject({ status: 401, body: invalidKey });
    expect((await keyed('GET', '/services', newKey)).status).toBe(200);
  });

  it('lists the visible services with names', async () => {
    const list = await eventually(() => keyed<Array<Record<string, unknown>>>('GET', '/services', key), (r) => r.body.some((s) => s.id === p.id), 5000);
    expect(list.status).toBe(200);
    expect(list.body.find((s) => s.id === p.id)).toEqual({ id: p.id, text: p.text, min: 10, max: 20_000, point: 2.5, platform: expect.any(String), category: expect.stringMatching(/^e2e /), enableAuto: true, type: 'default' });
  });

  it('places an order → {wId}, whose status only its owner can read', async () => {
    const placed = await keyed<{ wId: number }>('POST', '/order', key, { body: { serviceId: p.id, link: 'https://x.example/r', amount: 100 } });
    expect(placed.status).toBe(201);
    expect(placed.body).toEqual({ wId: expect.any(Number) });
    expect(await keyed('GET', `/status/${placed.body.wId}`, key)).toMatchObject({ status: 200, body: { status: 0, remains: 100 } });
    const stranger = await apiKeyOf(await member());
    expect((await keyed('GET', `/status/${placed.body.wId}`, stranger)).status).toBe(404);
    expect((await keyed('GET', '/status/abc', key)).status).toBe(404);
    const web = await api<{ items: Array<{ id: number }> }>('GET', '/service/order-history', { token: m.token });
    expect(web.body.items.map((o) => o.id)).toContain(placed.body.wId);
  });

  it('passes the order rules through with their codes and messages', async () => {
    const poor = await apiKeyOf(await member());
    expect(await keyed('POST', '/order', poor, { body: { serviceId: p.id, link: 'x', amount: 10 } })).toMatchObject({ status: 402, body: { code: 'INSUFFICIENT_POINTS', message: '포인트가 부족합니다.' } });
    expect(await keyed('POST', '/order', key, { body: { serviceId: p.id, link: '', amount: 10 } })).toMatchObject({ status: 400, body: { code: 'LINK_REQUIRED' } });
    expect(await keyed('POST', '/order', key, { body: { serviceId: p.id, link: 'x', amount: 5 } })).toMatchObject({ status: 400, body: { code: 'AMOUNT_BELOW_MIN', message: '최소 주문 수량보다 적습니다. (최소 10)' } });
    expect(await keyed('POST', '/order', key, { body: { link: 'x', amount: 5 } })).toMatchObject({ status: 400, body: { code: 'SERVICE_REQUIRED' } });
    const malformed = await fetch(`${stack().bffUrl}/api/order`, { method: 'POST', headers: { 'api-key': key, 'content-type': 'application/json' }, body: '{"serviceId":' });
    expect(malformed.status).toBe(400);
  });

  it('honours Idempotency-Key: the same request is placed once, another body is refused', async () => {
    const fresh = await member(10_000);
    const k = await apiKeyOf(fresh);
    const body = { serviceId: p.id, link: 'https://x.example/i', amount: 100 };
    const headers = { 'idempotency-key': `idem-${Date.now()}` };
    const burst = await Promise.all(Array.from({ length: 8 }, () => keyed<{ wId: number }>('POST', '/order', k, { body, headers })));
    expect(new Set(burst.map((r) => r.body.wId)).size).toBe(1);
    expect(burst.every((r) => r.status === 201)).toBe(true);
    const again = await keyed<{ wId: number }>('POST', '/order', k, { body, headers });
    expect(again.body.wId).toBe(burst[0]!.body.wId);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const reused = await keyed('POST', '/order', k, { body: { ...body, amount: 101 }, headers });
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await pointDeciOf(fresh)).toBe(100_000 - 2500);
    const orders = await api<{ items: unknown[] }>('GET', '/service/order-history', { token: fresh.token });
    expect(orders.body.items).toHaveLength(1);
    // a refusal is replayed as well
    const tooFew = { 'idempotency-key': `idem-few-${Date.now()}` };
    expect((await keyed('POST', '/order', k, { body: { ...body, amount: 1 }, headers: tooFew })).body.code).toBe('AMOUNT_BELOW_MIN');
    expect((await keyed('POST', '/order', k, { body: { ...body, amount: 1 }, headers: tooFew })).headers.get('idempotent-replayed')).toBe('true');
  });

  it(`limits each key to API_RATE_LIMIT_PER_MINUTE (${moneyEnv.API_RATE_LIMIT_PER_MINUTE} here) with 429 and Retry-After`, async () => {
    const limit = Number(moneyEnv.API_RATE_LIMIT_PER_MINUTE);
    // a fixed one-minute window: do not start right before its edge
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await sleep(60_500 - intoMinute);
    const k = await apiKeyOf(await member());
    const statuses: number[] = [];
    for (let i = 0; i < limit; i += 20) {
      const batch = await Promise.all(Array.from({ length: Math.min(20, limit - i) }, () => keyed('GET', '/services', k)));
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    const limited = await keyed('GET', '/services', k);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await v2({ key: k, action: 'balance' })).status).toBe(429);
    expect((await keyed('GET', '/services', key)).status).toBe(200);
  });
});

describe.runIf(orderServiceUp())('API v2 (panel standard)', () => {
  let m: Member;
  let key: string;
  let p: Awaited<ReturnType<typeof product>>;
  let noAuto: Awaited<ReturnType<typeof product>>;
  beforeAll(async () => {
    m = await member(20_000);
    key = await apiKeyOf(m);
    p = await product({ min: 10, max: 10_000, point: 2.5, enableAuto: true }, m);
    noAuto = await product({ min: 100, max: 30_000, point: 0.3, enableAuto: false }, m);
  });

  it('answers errors as {error} with fitting statuses', async () => {
    expect(await v2({ key: 'smm_wrong', action: 'balance' })).toMatchObject({ status: 401, body: { error: 'Invalid API key' } });
    expect(await v2({ action: 'balance' })).toMatchObject({ status: 401, body: { error: 'Invalid API key' } });
    expect(await v2({ key })).toMatchObject({ status: 400, body: { error: 'Incorrect request' } });
    expect(await v2({ key, action: 'refill' })).toMatchObject({ status: 400, body: { error: 'Incorrect request' } });
    for (const raw of ['{"key":', '[1,2]', 'null']) {
      const res = await fetch(`${stack().bffUrl}/api/v2`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw });
      expect(res.status, raw).toBeGreaterThanOrEqual(400);
      expect(res.status, raw).toBeLessThan(500);
      expect(Object.keys((await res.json()) as object), raw).toEqual(['error']);
    }
    expect(await v2({ key, action: 'status' })).toMatchObject({ status: 400, body: { error: 'Incorrect request' } });
    expect(await v2({ key, action: 'status', order: '99999999' })).toMatchObject({ status: 404, body: { error: 'Incorrect order ID' } });
  });

  it('lists services with the rate per 1,000 exact in won', async () => {
    // the BFF keeps the joined list for RESELLER_CATALOGUE_CACHE_MS (1 s): a new product shows up within it
    const list = await eventually(() => v2<Array<Record<string, unknown>>>({ key, action: 'services' }), (r) => r.body.some((s) => s.service === noAuto.id), 5000);
    expect(list.body.find((s) => s.service === p.id)).toEqual({ service: p.id, name: p.text, type: 'Default', category: expect.any(String), rate: '2500.0', min: 10, max: 10_000, refill: false, cancel: false, dripfeed: true });
    expect(list.body.find((s) => s.service === noAuto.id)).toMatchObject({ rate: '300.0', dripfeed: false });
  });

  it('adds orders and drip-feed orders, reads status one by one and many at once, and the balance', async () => {
    expect(await v2({ key, action: 'balance' })).toMatchObject({ status: 200, body: { balance: '20000.0', currency: 'KRW' } });
    const one = await v2<{ order: number }>({ key, action: 'add', service: String(p.id), link: 'https://x.example/v2', quantity: '100' });
    expect(one).toMatchObject({ status: 200, body: { order: expect.any(Number) } });
    const drip = await v2<{ order: number }>({ key, action: 'add', service: String(p.id), link: 'https://x.example/v2d', quantity: '10', runs: '2', interval: '60' }, 'json');
    expect(drip.body.order).toEqual(expect.any(Number));
    expect(await v2({ key, action: 'balance' })).toMatchObject({ body: { balance: '19700.0' } }); // 250 + 50 won
    expect((await v2({ key, action: 'status', order: String(one.body.order) })).body).toEqual({ charge: '250.0', start_count: '0', status: 'Pending', remains: '100', currency: 'KRW' });
    await eventually(() => v2<{ status: string }>({ key, action: 'status', order: String(drip.body.order) }), (r) => r.body.status === 'Completed', 30_000);
    const many = await v2<Record<string, unknown>>({ key, action: 'status', orders: `${one.body.order},${drip.body.order},99999999,abc` });
    expect(many.body).toEqual({
      [String(one.body.order)]: { charge: '250.0', start_count: '0', status: 'Pending', remains: '100', currency: 'KRW' },
      [String(drip.body.order)]: { charge: '50.0', start_count: '0', status: 'Completed', remains: '0', currency: 'KRW' },
      '99999999': { error: 'Incorrect order ID' },
      abc: { error: 'Incorrect order ID' },
    });
    const stranger = await apiKeyOf(await member());
    expect((await v2({ key: stranger, action: 'status', order: String(one.body.order) })).body).toEqual({ error: 'Incorrect order ID' });
  });

  it('maps order refusals to the panel texts', async () => {
    const poor = await apiKeyOf(await member());
    const add = (k: string, fields: Record<string, string>) => v2({ key: k, action: 'add', link: 'https://x.example/e', ...fields });
    expect(await add(poor, { service: String(p.id), quantity: '10' })).toMatchObject({ status: 402, body: { error: 'Not enough funds on balance' } });
    expect(await add(key, { service: '987654321', quantity: '10' })).toMatchObject({ status: 400, body: { error: 'Incorrect service ID' } });
    expect(await add(key, { service: 'x', quantity: '10' })).toMatchObject({ status: 400, body: { error: 'Incorrect service ID' } });
    expect(await add(key, { service: String(p.id), quantity: '9' })).toMatchObject({ status: 400, body: { error: 'Quantity less than minimal 10' } });
    expect(await add(key, { service: String(p.id), quantity: '10001' })).toMatchObject({ status: 400, body: { error: 'Quantity more than maximal 10000' } });
    expect(await add(key, { service: String(p.id), quantity: 'many' })).toMatchObject({ status: 400, body: { error: 'Incorrect quantity' } });
    expect(await add(key, { service: String(noAuto.id), quantity: '100', runs: '2', interval: '60' })).toMatchObject({ status: 400, body: { error: 'Drip-feed is not supported for this service' } });
    expect(await add(key, { service: String(p.id), quantity: '10', runs: '1', interval: '60' })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/runs/) } });
    expect(await v2({ key, action: 'add', service: String(p.id), quantity: '10' })).toMatchObject({ status: 400, body: { error: 'Incorrect link' } });
  });
});

describe('api-docs for the web app /api screen', () => {
  it('describes base URL, header, format, the three endpoints and v2', async () => {
    const docs = await api<Record<string, unknown> & { endpoints: Array<{ method: string; path: string }>; v2: { url: string; actions: Array<{ action: string }> } }>('GET', '/service/api-docs');
    expect(docs.status).toBe(200);
    expect(docs.body.baseUrl).toBe(`${stack().bffUrl}/api`);
    expect(docs.body.header).toMatchObject({ name: 'api-key' });
    expect(docs.body.endpoints.map((e) => `${e.method} ${e.path}`)).toEqual(['GET /services', 'POST /order', 'GET /status/{wId}']);
    expect(docs.body.v2.url).toBe(`${stack().bffUrl}/api/v2`);
    expect([...new Set(docs.body.v2.actions.map((a) => a.action))]).toEqual(['services', 'add', 'status', 'balance', 'refill', 'refill_status', 'cancel']);
    // The answer a cancel or refill sent right after add can get is documented with the words the API uses.
    expect((docs.body.v2 as unknown as { errors: string[] }).errors).toContain('Order is not ready yet, try again in a few seconds');
  });
});
