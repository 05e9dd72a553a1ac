import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultProvider, closedPort } from './fault-provider.ts';
import { type Infra, type Stack, client, eventually, keySecret, startInfra, startStack } from './support.ts';

type ProviderView = { id: number; name: string; url: string; key: string; currency: string; balance: string | null; balanceLow: boolean; lastError: string | null };
type ErrorBody = { code: string; message: string };

let infra: Infra;
let stack: Stack;
let upstream: FaultProvider;

beforeAll(async () => {
  infra = await startInfra();
  stack = await startStack(infra);
  upstream = new FaultProvider('secret-api-key-7777');
  upstream.services = [
    { service: 1, name: 'Instagram Likes', type: 'Default', category: 'Instagram', rate: '1.50', min: 50, max: 20000, refill: true, cancel: false, dripfeed: false },
    { service: '2', name: 'Instagram Followers', rate: 0.9, min: '100', max: '5000', refill: false, cancel: true, dripfeed: true },
    { service: 3, name: 'broken: no rate', rate: 'abc', min: 1, max: 10 },
  ];
  await upstream.start();
}, 120_000);

afterAll(async () => {
  await upstream?.stop();
  await stack?.stop();
  await infra?.stop();
});

const providerBody = (over: Record<string, unknown> = {}) => ({ name: '해외 공급처', url: upstream.url, key: upstream.key, currency: 'USD', wonDeciPerUnit: 13_500, ...over });

describe('providers', () => {
  it('are created with the key encrypted at rest and shown only masked', async () => {
    const res = await stack.admin.post<ProviderView>('/admin/providers', providerBody());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: '해외 공급처', url: upstream.url, key: '****7777', currency: 'USD', balance: null });
    expect(JSON.stringify((await stack.admin.get('/admin/providers')).body)).not.toContain(upstream.key);
    const raw = await stack.fulfillment.connection.collection('providers').findOne({ _id: res.body.id as never });
    expect(JSON.stringify(raw)).not.toContain(upstream.key);
    expect(raw).toMatchObject({ key: { iv: expect.any(String), tag: expect.any(String), data: expect.any(String) } });
    // Another secret cannot open it.
    const { KeyCipher } = await import('../src/store/key-cipher.ts');
    expect(new KeyCipher(keySecret).open(raw!.key as never)).toBe(upstream.key);
    expect(() => new KeyCipher(`${keySecret}-other`).open(raw!.key as never)).toThrow();
  });

  it('refuse bad input with a Korean message and non-operators with 403', async () => {
    for (const [body, field] of [
      [providerBody({ url: 'ftp://x' }), 'url'],
      [providerBody({ name: '' }), 'name'],
      [providerBody({ key: '' }), 'key'],
      [providerBody({ currency: 'usd' }), 'currency'],
      [providerBody({ wonDeciPerUnit: 0 }), 'wonDeciPerUnit'],
      [providerBody({ lowBalanceThreshold: '-1' }), 'lowBalanceThreshold'],
    ] as const) {
      const res = await stack.admin.post<ErrorBody & { details: Array<{ field: string }> }>('/admin/providers', body);
      expect([res.status, res.body.code, res.body.details[0]!.field]).toEqual([400, 'VALIDATION_FAILED', field]);
      expect(res.body.message).toMatch(/[가-힣]/);
    }
    const member = await client(stack.fulfillment.base, 'm-1', 'member').get<ErrorBody>('/admin/providers');
    expect([member.status, member.body.code]).toEqual([403, 'ADMIN_ONLY']);
    expect((await stack.admin.get<ErrorBody>('/admin/providers/999')).status).toBe(404);
  });

  it('check the connection with `balance`, and store the failure when the key is wrong or the host is down', async () => {
    const good = await stack.admin.post<ProviderView>('/admin/providers', providerBody());
    const checked = await stack.admin.post<{ ok: boolean; balance: string; provider: ProviderView }>(`/admin/providers/${good.body.id}/check`);
    expect(checked.body).toMatchObject({ ok: true, balance: '100.00', error: null, provider: { balance: '100.00', balanceLow: false } });

    const wrong = await stack.admin.post<ProviderView>('/admin/providers', providerBody({ key: 'not-the-key' }));
    const refused = await stack.admin.post<{ ok: boolean; error: string }>(`/admin/providers/${wrong.body.id}/check`);
    expect(refused.body).toMatchObject({ ok: false, error: 'Invalid API key', provider: { lastError: 'Invalid API key', balance: null } });

    const down = await stack.admin.post<ProviderView>('/admin/providers', providerBody({ url: `http://127.0.0.1:${await closedPort()}/api/v2` }));
    const unreachable = await stack.admin.post<{ ok: boolean; error: string }>(`/admin/providers/${down.body.id}/check`);
    expect(unreachable.body).toMatchObject({ ok: false, error: 'ECONNREFUSED' });
  });

  it('raise ProviderBalanceLow once when the balance falls below the threshold', async () => {
    const p = await stack.admin.post<ProviderView>('/admin/providers', providerBody({ lowBalanceThreshold: '150' }));
    const first = await stack.admin.post<{ provider: ProviderView }>(`/admin/providers/${p.body.id}/check`);
    expect(first.body.provider.balanceLow).toBe(true);
    await stack.admin.post(`/admin/providers/${p.body.id}/check`);
    const low = await eventually(() => stack.events.events.filter((e) => e.type === 'ProviderBalanceLow' && e.aggregateId === `provider-${p.body.id}`), (e) => e.length >= 1);
    expect(low[0]!.data).toEqual({ providerId: p.body.id, name: '해외 공급처', balance: '100.00', threshold: '150', currency: 'USD' });
    await new Promise((r) => setTimeout(r, 500));
    expect(stack.events.events.filter((e) => e.type === 'ProviderBalanceLow' && e.aggregateId === `provider-${p.body.id}`)).toHaveLength(1);
  });

  it('cannot be deleted while a product is mapped to them', async () => {
    const p = await stack.admin.post<ProviderView>('/admin/providers', providerBody());
    await stack.admin.post(`/admin/providers/${p.body.id}/import`);
    const productId = await stack.product();
    expect((await stack.admin.put(`/admin/mappings/${productId}`, { mode: 'provider', providerId: p.body.id, providerServiceId: '1', rule: { kind: 'markup', percent: 10 } })).status).toBe(200);
    expect((await stack.admin.del<ErrorBody>(`/admin/providers/${p.body.id}`)).body.code).toBe('PROVIDER_IN_USE');
    expect((await stack.admin.del(`/admin/mappings/${productId}`)).status).toBe(204);
    expect((await stack.admin.del(`/admin/providers/${p.body.id}`)).status).toBe(204);
  });
});

describe('service import and mapping', () => {
  it('imports the provider’s services with their flags, skipping malformed entries', async () => {
    const p = await stack.admin.post<ProviderView>('/admin/providers', providerBody());
    const imported = await stack.admin.post(`/admin/providers/${p.body.id}/import`);
    expect(imported.body).toEqual({ imported: 2, skipped: 1 });
    const list = await stack.admin.get<unknown[]>(`/admin/providers/${p.body.id}/services`);
    expect(list.body).toEqual([
      { service: '1', name: 'Instagram Likes', type: 'Default', category: 'Instagram', rate: '1.50', min: 50, max: 20000, dripfeed: false, refill: true, cancel: false, listed: true },
      { service: '2', name: 'Instagram Followers', type: 'Default', category: '', rate: '0.9', min: 100, max: 5000, dripfeed: true, refill: false, cancel: true, listed: true },
    ]);
  });

  it('prices a product by markup over the provider cost and sets its limits in the catalog', async () => {
    const p = await stack.admin.post<ProviderView>('/admin/providers', providerBody());
    await stack.admin.post(`/admin/providers/${p.body.id}/import`);
    const productId = await stack.product({ min: 1, max: 5 });
    const mapped = await stack.admin.put(`/admin/mappings/${productId}`, { mode: 'provider', providerId: p.body.id, providerServiceId: '1', rule: { kind: 'markup', percent: 50 } });
    // 1.50 USD per 1000 at 1,350 won = 2.025 won a unit → 21 deci-won (rounded up); +50 % → 31.5 → 32.
    expect(mapped.body).toMatchObject({ productId, mode: 'provider', costDeci: 21, unitPriceDeci: 32, min: 50, max: 20000, refill: true, cancel: false, dripfeed: false });
    const product = await client(stack.catalog.base).get(`/admin/services/${productId}`);
    expect(product.body).toMatchObject({ unitPriceDeci: 32, point: 3.2, min: 50, max: 20000, isReadOnly: false });
    // Order's price replica follows through the catalog's events.
    await eventually(() => stack.order.store.product(productId), (r) => r?.unitPriceDeci === 32 && r.min === 50);
  });

  it('refuses a fixed price below cost unless the operator overrides, and unknown services', async () => {
    const p = await stack.admin.post<ProviderView>('/admin/providers', providerBody());
    await stack.admin.post(`/admin/providers/${p.body.id}/import`);
    const productId = await stack.product();
    const below = await stack.admin.put<ErrorBody>(`/admin/mappings/${productId}`, { mode: 'provider', providerId: p.body.id, providerServiceId: '1', rule: { kind: 'fixed', unitPriceDeci: 20 } });
    expect([below.status, below.body.code]).toEqual([400, 'BELOW_COST']);
    expect(below.body.message).toContain('원가');
    expect((await client(stack.catalog.base).get(`/admin/services/${productId}`)).body).toMatchObject({ unitPriceDeci: 25 });
    const forced = await stack.admin.put(`/admin/mappings/${productId}`, { mode: 'provider', providerId: p.body.id, providerServiceId: '1', rule: { kind: 'fixed', unitPriceDeci: 20 }, allowBelowCost: true });
    expect(forced.body).toMatchObject({ unitPriceDeci: 20, allowBelowCost: true });
    const unknown = await stack.admin.put<ErrorBody>(`/admin/mappings/${productId}`, { mode: 'provider', providerId: p.body.id, providerServiceId: '3', rule: { kind: 'markup', percent: 0 } });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'PROVIDER_SERVICE_NOT_FOUND']);
    const badRule = await stack.admin.put<ErrorBody>(`/admin/mappings/${productId}`, { mode: 'provider', providerId: p.body.id, providerServiceId: '1', rule: { kind: 'markup', percent: -5 } });
    expect(badRule.status).toBe(400);
    const noProduct = await stack.admin.put<ErrorBody>('/admin/mappings/99999', { mode: 'manual' });
    expect([noProduct.status, noProduct.body.code]).toEqual([404, 'PRODUCT_NOT_FOUND']);
    expect((await stack.admin.put(`/admin/mappings/${productId}`, { mode: 'manual' })).body).toMatchObject({ productId, mode: 'manual', providerId: null });
  });

  it('marks services the provider no longer lists, so new mappings to them are refused', async () => {
    const own = new FaultProvider('k-drop');
    own.services = [{ service: 7, name: 'a', rate: '1', min: 1, max: 10 }, { service: 8, name: 'b', rate: '1', min: 1, max: 10 }];
    await own.start();
    try {
      const p = await stack.admin.post<ProviderView>('/admin/providers', providerBody({ url: own.url, key: own.key }));
      await stack.admin.post(`/admin/providers/${p.body.id}/import`);
      own.services = [{ service: 7, name: 'a', rate: '1', min: 1, max: 10 }];
      await stack.admin.post(`/admin/providers/${p.body.id}/import`);
      const list = await stack.admin.get<Array<{ service: string; listed: boolean }>>(`/admin/providers/${p.body.id}/services`);
      expect(list.body.map((s) => [s.service, s.listed])).toEqual([['7', true], ['8', false]]);
      const productId = await stack.product();
      const res = await stack.admin.put<ErrorBody>(`/admin/mappings/${productId}`, { mode: 'provider', providerId: p.body.id, providerServiceId: '8', rule: { kind: 'markup', percent: 0 } });
      expect(res.body.code).toBe('PROVIDER_SERVICE_NOT_FOUND');
    } finally {
      await own.stop();
    }
  });
});

describe('provider addresses', () => {
  it('loopback and private addresses are refused unless the deployment allows them — when saved and at every call', async () => {
    const saved = await stack.admin.post<ProviderView>('/admin/providers', providerBody({ name: '내부 공급처' }));
    expect(saved.status).toBe(201);
    await stack.restartFulfillment({ allowPrivateProviders: false });
    try {
      const count = async () => ((await stack.admin.get<ProviderView[]>('/admin/providers')).body as ProviderView[]).length;
      const before = await count();
      for (const url of ['http://127.0.0.1:9/api/v2', 'http://localhost/api/v2', 'http://api.localhost/v2', 'http://[::1]/api/v2', 'http://169.254.169.254/latest', 'http://10.1.2.3/api/v2', 'http://192.168.0.7/api/v2', 'http://[::ffff:172.16.0.1]/api/v2']) {
        const res = await stack.admin.post<ErrorBody>('/admin/providers', providerBody({ url }));
        expect([res.status, res.body.code], url).toEqual([400, 'PROVIDER_URL_PRIVATE']);
        expect(res.body.message).toContain('내부망 주소');
      }
      expect(await count()).toBe(before);
      const patched = await stack.admin.patch<ErrorBody>(`/admin/providers/${saved.body.id}`, { url: 'http://127.0.0.2/api/v2' });
      expect([patched.status, patched.body.code]).toEqual([400, 'PROVIDER_URL_PRIVATE']);

      // A provider saved while it was allowed is not called once it is not.
      const calls = upstream.received.length;
      const check = await stack.admin.post<{ ok: boolean; error: string | null }>(`/admin/providers/${saved.body.id}/check`, {});
      expect(check.body).toMatchObject({ ok: false, error: expect.stringContaining('loopback or private') });
      expect(upstream.received.length).toBe(calls);
    } finally {
      await stack.restartFulfillment({ allowPrivateProviders: true });
    }
  });
});
