import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultProvider } from './fault-provider.ts';
import { type Infra, type Stack, client, eventually, startInfra, startStack } from './support.ts';

/** The operators' order list reads forwarding through /admin/order-forwards (issue 12). */
type Row = { orderId: number; state: string; providerId: number | null; providerName: string | null; providerOrderId: string | null };
type Chunk = { items: Row[]; hasMore: boolean };

let infra: Infra;
let stack: Stack;
const upstreams: FaultProvider[] = [];
const providers: Array<{ id: number; name: string; productId: number }> = [];
const services = [{ service: 11, name: 'Likes', rate: '1000', min: 10, max: 10_000, refill: false, cancel: false }];
/** Orders placed, oldest first: [provider index, member, product, link, order id]. */
const placed: Array<{ provider: number; userId: string; link: string; id: number }> = [];
let manualOrder: number;

beforeAll(async () => {
  infra = await startInfra();
  stack = await startStack(infra);
  for (const n of [0, 1]) {
    const upstream = new FaultProvider();
    upstream.services = services;
    await upstream.start();
    upstreams.push(upstream);
    const name = `공급처 ${n === 0 ? 'A' : 'B'} ${randomUUID().slice(0, 4)}`;
    const p = await stack.admin.post<{ id: number }>('/admin/providers', { name, url: upstream.url, key: upstream.key, currency: 'KRW', wonDeciPerUnit: 10 });
    await stack.admin.post(`/admin/providers/${p.body.id}/import`);
    const productId = await stack.product();
    await stack.admin.put(`/admin/mappings/${productId}`, { mode: 'provider', providerId: p.body.id, providerServiceId: '11', rule: { kind: 'markup', percent: 0 } });
    await eventually(() => stack.order.store.product(productId), (r) => r?.unitPriceDeci === 10);
    providers.push({ id: p.body.id, name, productId });
  }
  const members = [`m-${randomUUID().slice(0, 8)}`, `m-${randomUUID().slice(0, 8)}`];
  const shared = `https://instagram.com/p/shared-${randomUUID().slice(0, 6)}`;
  // Provider A: 5 orders (two members, one link twice); provider B: 2 orders.
  for (const [provider, member, link] of [
    [0, 0, shared],
    [1, 0, null],
    [0, 1, null],
    [0, 0, shared],
    [1, 1, null],
    [0, 1, null],
    [0, 0, null],
  ] as const) {
    const l = link ?? `https://instagram.com/p/${randomUUID().slice(0, 8)}`;
    const id = await stack.placeOrder(providers[provider]!.productId, l, 100, members[member]);
    placed.push({ provider, userId: members[member]!, link: l, id });
  }
  // A product without a provider: its order is handled by hand.
  const manualProduct = await stack.product();
  await stack.admin.put(`/admin/mappings/${manualProduct}`, { mode: 'manual' });
  manualOrder = await stack.placeOrder(manualProduct, `https://instagram.com/p/${randomUUID().slice(0, 8)}`, 50);
  await eventually(() => stack.admin.get<{ items: Row[] }>(`/admin/order-forwards?ids=${[...placed.map((p) => p.id), manualOrder].join(',')}`), (r) => r.body.items.length === 8 && r.body.items.filter((i) => i.state === 'accepted').length === 7, 60_000);
}, 180_000);

afterAll(async () => {
  for (const u of upstreams) await u.stop();
  await stack?.stop();
  await infra?.stop();
});

const newestFirst = (provider: number, keep: (p: (typeof placed)[number]) => boolean = () => true) =>
  placed
    .filter((p) => p.provider === provider && keep(p))
    .map((p) => p.id)
    .reverse();

describe('orders forwarded to one provider', () => {
  it('are listed newest first, a chunk at a time below a cursor', async () => {
    const a = providers[0]!;
    const first = await stack.admin.get<Chunk>(`/admin/order-forwards/search?providerId=${a.id}&limit=3`);
    expect(first.status).toBe(200);
    expect(first.body.items.map((r) => r.orderId)).toEqual(newestFirst(0).slice(0, 3));
    expect(first.body.hasMore).toBe(true);
    expect(first.body.items[0]).toMatchObject({ state: 'accepted', providerId: a.id, providerName: a.name, providerOrderId: expect.stringMatching(/^\d+$/) });
    const next = await stack.admin.get<Chunk>(`/admin/order-forwards/search?providerId=${a.id}&limit=3&before=${first.body.items.at(-1)!.orderId}`);
    expect(next.body.items.map((r) => r.orderId)).toEqual(newestFirst(0).slice(3));
    expect(next.body.hasMore).toBe(false);
    const b = await stack.admin.get<Chunk>(`/admin/order-forwards/search?providerId=${providers[1]!.id}`);
    expect(b.body.items.map((r) => r.orderId)).toEqual(newestFirst(1));
  });

  it('narrow by member, product, link and order id, exactly as placed', async () => {
    const a = providers[0]!;
    const member = placed[0]!.userId;
    const ids = async (q: string) => (await stack.admin.get<Chunk>(`/admin/order-forwards/search?providerId=${a.id}&${q}`)).body.items.map((r) => r.orderId);
    expect(await ids(`userId=${member}`)).toEqual(newestFirst(0, (p) => p.userId === member));
    expect(await ids(`link=${encodeURIComponent(placed[0]!.link)}`)).toEqual([placed[3]!.id, placed[0]!.id]);
    expect(await ids(`productId=${a.productId}`)).toEqual(newestFirst(0));
    expect(await ids(`productId=${providers[1]!.productId}`)).toEqual([]);
    expect(await ids(`orderId=${placed[2]!.id}`)).toEqual([placed[2]!.id]);
    // Another provider's order is not this provider's.
    expect(await ids(`orderId=${placed[1]!.id}`)).toEqual([]);
    expect(await ids(`orderId=${placed[2]!.id}&before=${placed[2]!.id}`)).toEqual([]);
  });

  it('answer a batched lookup of a page of orders, a manual order included, and a clear 400 for bad input', async () => {
    const ids = [...placed.map((p) => p.id), manualOrder, 999_999_999];
    const rows = (await stack.admin.get<{ items: Row[] }>(`/admin/order-forwards?ids=${ids.join(',')}`)).body.items;
    expect(rows.map((r) => r.orderId)).toEqual([manualOrder, ...placed.map((p) => p.id).reverse()]);
    expect(rows[0]).toMatchObject({ state: 'manual', providerId: null, providerName: null, providerOrderId: null });
    expect(rows.find((r) => r.orderId === placed[1]!.id)).toMatchObject({ providerName: providers[1]!.name });
    for (const bad of ['/admin/order-forwards?ids=1,x', '/admin/order-forwards', `/admin/order-forwards?ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`, '/admin/order-forwards/search', '/admin/order-forwards/search?providerId=0', `/admin/order-forwards/search?providerId=1&limit=500`]) {
      const res = await stack.admin.get<{ code: string; message: string }>(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.message, bad).toMatch(/[가-힣]/);
    }
  });

  it('are open to staff (they run the order list) and closed to members; provider management stays admin only', async () => {
    const staff = client(stack.fulfillment.base, 'staff-1', 'staff');
    expect((await staff.get<Chunk>(`/admin/order-forwards/search?providerId=${providers[0]!.id}`)).body.items.length).toBe(5);
    expect((await staff.get<Array<{ id: number; name: string }>>('/admin/order-forwards/providers')).body).toEqual(expect.arrayContaining(providers.map((p) => ({ id: p.id, name: p.name }))));
    expect((await staff.get('/admin/providers')).status).toBe(403);
    const member = client(stack.fulfillment.base, 'm-1', 'member');
    for (const path of ['/admin/order-forwards?ids=1', `/admin/order-forwards/search?providerId=1`, '/admin/order-forwards/providers']) expect((await member.get(path)).status, path).toBe(403);
  });
});
