import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, call, startHarness } from './support/harness.ts';
import { platformViewBody } from './support/service-bodies.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());
beforeEach(() => {
  for (const s of [h.auth, h.catalog, h.fulfillment]) s.reset();
  h.auth.on('POST /api-keys/resolve', (req) =>
    (req.body as { apiKey: string }).apiKey === 'key-a' ? { body: { userId: 'user-a', loginId: 'a', role: 'member' } } : { status: 404, body: { code: 'API_KEY_INVALID', message: 'x' } },
  );
  // Fulfillment as it answers for user-a: order 5 refillable/cancellable, 6 not, refill 9 known.
  h.fulfillment.on('POST /orders/5/refill', { status: 201, body: { refill: 9, orderId: 5, status: 'Pending' } });
  h.fulfillment.on('POST /orders/6/refill', { status: 409, body: { code: 'REFILL_NOT_COMPLETED', message: '완료된 주문만 리필을 요청할 수 있습니다.' } });
  h.fulfillment.on('POST /orders/7/refill', { status: 404, body: { code: 'ORDER_NOT_FOUND', message: '주문을 찾을 수 없습니다.' } });
  h.fulfillment.on('GET /refills/9', { body: { refill: 9, orderId: 5, status: 'Completed' } });
  h.fulfillment.on('GET /refills/10', { status: 404, body: { code: 'REFILL_NOT_FOUND', message: '리필 요청을 찾을 수 없습니다.' } });
  h.fulfillment.on('POST /orders/5/cancel', { body: { orderId: 5, cancel: 'requested' } });
  h.fulfillment.on('POST /orders/6/cancel', { status: 409, body: { code: 'CANCEL_NOT_PENDING', message: '시작 전(주문 접수) 상태의 주문만 취소할 수 있습니다.' } });
  // Issue 41: a repeated cancel, an order already canceled, an unclear provider answer, and a refill still open.
  h.fulfillment.on('POST /orders/11/cancel', { status: 409, body: { code: 'CANCEL_ALREADY_REQUESTED', message: '이미 취소를 요청한 주문입니다.' } });
  h.fulfillment.on('POST /orders/12/cancel', { status: 409, body: { code: 'ORDER_ALREADY_CANCELED', message: '이미 취소된 주문입니다.' } });
  h.fulfillment.on('POST /orders/13/cancel', { status: 502, body: { code: 'PROVIDER_UNCLEAR', message: '공급처의 답을 확인하지 못했습니다.' } });
  h.fulfillment.on('POST /orders/11/refill', { status: 200, body: { refill: 9, orderId: 11, status: 'Pending', state: 'forwarded', existing: true } });
  h.fulfillment.on('POST /orders/13/refill', { status: 502, body: { code: 'PROVIDER_UNCLEAR', message: '공급처의 답을 확인하지 못했습니다.' } });
});

const form = (fields: Record<string, string>) =>
  fetch(`${h.url}/api/v2`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) }).then(async (r) => ({ status: r.status, body: (await r.json()) as unknown }));

describe('API v2 refill, refill_status, cancel', () => {
  it('answer in the shapes panels use, single and multi', async () => {
    expect(await form({ key: 'key-a', action: 'refill', order: '5' })).toEqual({ status: 200, body: { refill: '9' } });
    expect(await form({ key: 'key-a', action: 'refill', order: '6' })).toEqual({ status: 409, body: { error: 'Refill is not available for this order' } });
    expect(await form({ key: 'key-a', action: 'refill', order: '7' })).toEqual({ status: 404, body: { error: 'Incorrect order ID' } });
    expect((await form({ key: 'key-a', action: 'refill', orders: '5,6,7,x' })).body).toEqual([
      { order: 5, refill: 9 },
      { order: 6, refill: { error: 'Refill is not available for this order' } },
      { order: 7, refill: { error: 'Incorrect order ID' } },
      { order: 'x', refill: { error: 'Incorrect order ID' } },
    ]);
    expect(await form({ key: 'key-a', action: 'refill_status', refill: '9' })).toEqual({ status: 200, body: { status: 'Completed' } });
    expect(await form({ key: 'key-a', action: 'refill_status', refill: '10' })).toEqual({ status: 404, body: { error: 'Incorrect refill ID' } });
    expect((await form({ key: 'key-a', action: 'refill_status', refills: '9,10' })).body).toEqual([
      { refill: 9, status: 'Completed' },
      { refill: 10, status: { error: 'Incorrect refill ID' } },
    ]);
    expect((await form({ key: 'key-a', action: 'cancel', orders: '5,6' })).body).toEqual([
      { order: 5, cancel: 1 },
      { order: 6, cancel: { error: 'Cancel is not available for this order' } },
    ]);
    expect(await form({ key: 'key-a', action: 'refill' })).toEqual({ status: 400, body: { error: 'Incorrect request' } });
    // A repeated cancel is told so, not "not available"; a second refill of an order gets the open one's id.
    expect((await form({ key: 'key-a', action: 'cancel', orders: '11,12,13' })).body).toEqual([
      { order: 11, cancel: { error: 'Cancel already requested for this order' } },
      { order: 12, cancel: { error: 'Order is already canceled' } },
      { order: 13, cancel: { error: 'The provider did not answer clearly; the request is kept and will be checked' } },
    ]);
    expect(await form({ key: 'key-a', action: 'refill', order: '11' })).toEqual({ status: 200, body: { refill: '9' } });
    expect(await form({ key: 'key-a', action: 'refill', order: '13' })).toEqual({ status: 502, body: { error: 'The provider did not answer clearly; the request is kept and will be checked' } });
    // The member acting is the key's owner.
    expect(h.fulfillment.calls('POST /orders/5/refill')[0]!.caller?.userId).toBe('user-a');
  });

  it('answer an order accepted a moment ago and not yet taken in by fulfillment (503 ORDER_NOT_READY) as "ask again", never as an unknown order', async () => {
    const notReady = { status: 503, body: { code: 'ORDER_NOT_READY', message: '주문을 접수하는 중입니다. 잠시 후 다시 시도해 주세요.' } };
    h.fulfillment.on('POST /orders/14/cancel', notReady);
    h.fulfillment.on('POST /orders/14/refill', notReady);
    const text = 'Order is not ready yet, try again in a few seconds';
    expect((await form({ key: 'key-a', action: 'cancel', orders: '14,5' })).body).toEqual([
      { order: 14, cancel: { error: text } },
      { order: 5, cancel: 1 },
    ]);
    const single = await fetch(`${h.url}/api/v2`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ key: 'key-a', action: 'refill', order: '14' }) });
    expect([single.status, single.headers.get('retry-after'), await single.json()]).toEqual([503, '1', { error: text }]);
    expect((await form({ key: 'key-a', action: 'refill', orders: '14' })).body).toEqual([{ order: 14, refill: { error: text } }]);
  });

  it('ask fulfillment about up to 8 of a list\'s orders at once, answering in the list\'s order', async () => {
    // Each cancel takes fulfillment 400 ms (a slow provider); 12 orders one after another would take 4.8 s.
    const arrivals: number[] = [];
    for (let id = 100; id < 112; id++) {
      h.fulfillment.on(`POST /orders/${id}/cancel`, () => {
        arrivals.push(Date.now());
        return id % 2 === 0 ? { body: { orderId: id, cancel: 'requested' }, delayMs: 400 } : { status: 409, body: { code: 'CANCEL_NOT_PENDING', message: 'x' }, delayMs: 400 };
      });
    }
    const ids = Array.from({ length: 12 }, (_, i) => 100 + i);
    expect((await form({ key: 'key-a', action: 'cancel', orders: ids.join(',') })).body).toEqual(ids.map((id) => ({ order: id, cancel: id % 2 === 0 ? 1 : { error: 'Cancel is not available for this order' } })));
    // How many were waiting on fulfillment when each was sent: 8 at most, and more than one.
    const inFlight = arrivals.map((at, i) => arrivals.slice(0, i).filter((earlier) => at - earlier < 350).length + 1);
    expect(Math.max(...inFlight)).toBe(8);
  });

  it('accept a GET query string and multipart/form-data, with v2 errors on every failure', async () => {
    const get = await fetch(`${h.url}/api/v2?key=key-a&action=refill_status&refill=9`);
    expect([get.status, await get.json()]).toEqual([200, { status: 'Completed' }]);
    const multipart = new FormData();
    multipart.set('key', 'key-a');
    multipart.set('action', 'cancel');
    multipart.set('orders', '5');
    const posted = await fetch(`${h.url}/api/v2`, { method: 'POST', body: multipart });
    expect([posted.status, await posted.json()]).toEqual([200, [{ order: 5, cancel: 1 }]]);
    const withFile = new FormData();
    withFile.set('key', 'key-a');
    withFile.set('file', new Blob(['x']), 'x.txt');
    const refused = await fetch(`${h.url}/api/v2`, { method: 'POST', body: withFile });
    expect([refused.status, await refused.json()]).toEqual([400, { error: 'Incorrect request' }]);
    const broken = await fetch(`${h.url}/api/v2`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=zz' }, body: '--zz\r\nContent-Disposition: form-data; name="key"\r\n\r\nkey-a' });
    expect([broken.status, await broken.json()]).toEqual([400, { error: 'Incorrect request' }]);
    const badKey = await fetch(`${h.url}/api/v2?key=nope&action=balance`);
    expect([badKey.status, await badKey.json()]).toEqual([401, { error: 'Invalid API key' }]);
  });

  it('services shows each product’s real refill and cancel flags', async () => {
    h.catalog.on('GET /services', { body: [{ id: 1, text: '좋아요', categoryId: 10, platformId: 1, min: 10, max: 100, point: 1, unitPriceDeci: 10, notice: '', enableAuto: false, isReadOnly: false }] });
    h.catalog.on('GET /categories', { body: [{ id: 10, text: '좋아요', platform: 1, platformId: 1 }] });
    h.catalog.on('GET /platforms', { body: [platformViewBody({ id: 1, text: '인스타그램' })] });
    h.fulfillment.on('GET /products/flags', { body: [{ productId: 1, refill: true, cancel: false }] });
    const list = (await form({ key: 'key-a', action: 'services' })).body as Array<Record<string, unknown>>;
    expect(list[0]).toMatchObject({ service: 1, refill: true, cancel: false });
  });
});

describe('resellers’ refill and cancel (api-key)', () => {
  it('act as the key’s member, with the JSON error shape', async () => {
    const headers = { 'api-key': 'key-a' };
    expect((await call(h.url, 'POST', '/api/refill/5', { headers })).body).toEqual({ refill: 9, orderId: 5, status: 'Pending' });
    expect((await call(h.url, 'GET', '/api/refill/9', { headers })).body).toMatchObject({ status: 'Completed' });
    expect((await call(h.url, 'POST', '/api/cancel/5', { headers })).body).toEqual({ orderId: 5, cancel: 'requested' });
    const refused = await call(h.url, 'POST', '/api/cancel/6', { headers });
    expect([refused.status, refused.body.code]).toEqual([409, 'CANCEL_NOT_PENDING']);
    expect(h.fulfillment.calls('POST /orders/5/cancel')[0]!.caller?.userId).toBe('user-a');
    expect((await call(h.url, 'POST', '/api/refill/5', { headers: { 'api-key': 'nope' } })).status).toBe(401);
  });
});

describe('members’ refill and cancel', () => {
  it('relay to fulfillment for a signed-in member, refusing guests', async () => {
    const token = h.keys.member();
    expect((await call(h.url, 'POST', '/api/service/orders/5/refill', { token })).body).toEqual({ refill: 9, orderId: 5, status: 'Pending' });
    expect((await call(h.url, 'POST', '/api/service/orders/5/cancel', { token })).body).toEqual({ orderId: 5, cancel: 'requested' });
    const refused = await call(h.url, 'POST', '/api/service/orders/6/cancel', { token });
    expect([refused.status, refused.body.message]).toEqual([409, '시작 전(주문 접수) 상태의 주문만 취소할 수 있습니다.']);
    expect((await call(h.url, 'GET', '/api/service/refills/9', { token })).body).toMatchObject({ status: 'Completed' });
    h.fulfillment.on('GET /products/flags', { body: [{ productId: 1, refill: true, cancel: false }] });
    expect((await call(h.url, 'GET', '/api/service/fulfillment-flags', { token })).body).toEqual([{ productId: 1, refill: true, cancel: false }]);
    expect((await call(h.url, 'POST', '/api/service/orders/5/refill', {})).status).toBe(401);
    expect((await call(h.url, 'POST', '/api/service/orders/abc/refill', { token })).status).toBe(404);
  });
});
