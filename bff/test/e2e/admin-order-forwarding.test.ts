import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@smm/testkit';
import { api, asAdmin, stack, uniqueId } from './support/client.ts';
import { type Member, apiKeyOf, listedToResellers, member, order, product } from './support/money.ts';

/**
 * The orders screen's forwarding (issue 12) through the real devstack: this panel is its own
 * upstream provider (its /api/v2 with a funded reseller's key), so fulfillment really forwards,
 * records the provider's order id, and the BFF joins and filters by it.
 */
type Forwarding = { state: string; providerId: number | null; providerName: string | null; providerOrderId: string | null };
type Row = { id: number; loginId: string | null; status: number; forwarding: Forwarding | null };
type Page = { items: Row[]; hasNext: boolean; forwardingUnavailable?: boolean };

let admin: string;
let staff: string;
let buyer: Member;
let providerId: number;
let providerName: string;
let forwardedProduct: number;
const forwarded: number[] = [];
let manualOrder: number;

const search = (q: string, token = admin) => api<Page>('GET', `/admin/orders/search?${q}`, { token });

beforeAll(async () => {
  admin = await asAdmin();
  const reseller = await member(50_000);
  const key = await apiKeyOf(reseller);
  const base = await product({ min: 10, max: 10_000, point: 2 }, reseller);
  await listedToResellers(key, base.id);
  providerName = `자기 패널 ${uniqueId('p').slice(-5)}`;
  const created = await api<{ id: number }>('POST', '/admin/fulfillment/providers', { token: admin, body: { name: providerName, url: `${stack().bffUrl}/api/v2`, key, currency: 'KRW', wonDeciPerUnit: 10, idempotentAdd: true } });
  expect(created.status).toBe(201);
  providerId = created.body.id;
  expect((await api('POST', `/admin/fulfillment/providers/${providerId}/import`, { token: admin })).status).toBe(200);
  const sold = await product({ min: 10, max: 10_000, point: 3 });
  forwardedProduct = sold.id;
  const mapped = await api('PUT', `/admin/fulfillment/mappings/${sold.id}`, { token: admin, body: { mode: 'provider', providerId, providerServiceId: String(base.id), rule: { kind: 'markup', percent: 10 } } });
  expect(mapped.status, JSON.stringify(mapped.body)).toBe(200);
  buyer = await member(50_000);
  for (let i = 0; i < 3; i++) {
    const placed = await eventually(() => order(buyer, { serviceId: sold.id, link: `https://www.instagram.com/p/fwd-${uniqueId('l')}`, amount: 100 }), (r) => r.status === 201, 20_000);
    forwarded.unshift(Number((placed.body.order as { id: number }).id));
  }
  manualOrder = Number(((await order(buyer, { serviceId: base.id, link: `https://www.instagram.com/p/manual-${uniqueId('l')}`, amount: 50 })).body.order as { id: number }).id);
  const staffMember = await member();
  expect((await api('PUT', `/admin/members/${staffMember.userId}/role`, { token: admin, body: { role: 'staff' } })).status).toBe(200);
  staff = (await api<{ accessToken: string }>('POST', '/auth/login', { body: { id: staffMember.id, password: staffMember.password } })).body.accessToken;
  // Forwarded: fulfillment called this panel's /api/v2 and recorded the order it placed there.
  await eventually(() => search(`loginId=${buyer.id}`), (r) => r.body.items.filter((i) => i.forwarding?.state === 'accepted').length === 3, 60_000);
}, 120_000);

describe('the orders screen and fulfillment', () => {
  it('shows each row’s forwarding state, provider and provider’s order id, from one lookup per page', async () => {
    const page = await search(`loginId=${buyer.id}`);
    expect(page.status).toBe(200);
    expect(page.body.items.map((i) => i.id)).toEqual([manualOrder, ...forwarded]);
    expect(page.body.items[0]!.forwarding).toMatchObject({ state: 'manual', providerId: null, providerOrderId: null });
    for (const row of page.body.items.slice(1)) {
      expect(row.forwarding).toMatchObject({ state: 'accepted', providerId, providerName, providerOrderId: expect.stringMatching(/^\d+$/) });
      // The provider's order is a real order of this panel, placed by the reseller.
      const theirs = await search(`orderId=${row.forwarding!.providerOrderId}`);
      expect(theirs.body.items).toHaveLength(1);
    }
    expect(page.body.forwardingUnavailable).toBeUndefined();
  });

  it('lists the orders forwarded to a provider, pages them, and combines the filter with member, product, link, id and status', async () => {
    const ids = async (q: string) => {
      const res = await search(`providerId=${providerId}&${q}`, staff);
      expect(res.status, q).toBe(200);
      return res.body;
    };
    // Only this test's buyer ordered the forwarded product.
    expect((await ids(`serviceId=${forwardedProduct}`)).items.map((i) => i.id)).toEqual(forwarded);
    const first = await ids(`loginId=${buyer.id}&pageSize=2`);
    expect([first.items.map((i) => i.id), first.hasNext]).toEqual([forwarded.slice(0, 2), true]);
    expect(first.items[0]).toMatchObject({ loginId: buyer.id, forwarding: { state: 'accepted', providerName } });
    const second = await ids(`loginId=${buyer.id}&pageSize=2&page=2`);
    expect([second.items.map((i) => i.id), second.hasNext]).toEqual([forwarded.slice(2), false]);
    expect((await ids(`orderId=${forwarded[1]}`)).items.map((i) => i.id)).toEqual([forwarded[1]]);
    expect((await ids(`orderId=${manualOrder}`)).items).toEqual([]);
    // Status lives in order: an operator moves one, and the provider filter with that status finds it alone.
    const moved = await api<{ results: Array<{ ok: boolean }> }>('POST', '/admin/orders/bulk', { token: staff, body: { ids: [forwarded[2]], status: 1 } });
    expect(moved.body.results).toEqual([{ id: forwarded[2], ok: true }]);
    expect((await ids(`loginId=${buyer.id}&status=1`)).items.map((i) => i.id)).toEqual([forwarded[2]]);
    expect((await ids(`loginId=${buyer.id}&status=0`)).items.map((i) => i.id)).toEqual(forwarded.slice(0, 2));
    const otherProvider = await search(`providerId=999999&loginId=${buyer.id}`);
    expect([otherProvider.status, otherProvider.body.items]).toEqual([200, []]);
  });

  it('names the providers to staff for the filter, refuses members and bad filters', async () => {
    const names = await api<Array<{ id: number; name: string }>>('GET', '/admin/orders/providers', { token: staff });
    expect(names.body).toContainEqual({ id: providerId, name: providerName });
    expect((await api('GET', '/admin/orders/providers', { token: buyer.token })).status).toBe(403);
    expect((await search(`providerId=${providerId}`, buyer.token)).status).toBe(403);
    const bad = await api<{ code: string; message: string }>('GET', '/admin/orders/search?providerId=abc', { token: staff });
    expect([bad.status, bad.body.code, bad.body.message]).toEqual([400, 'VALIDATION_FAILED', '입력 형식이 올바르지 않습니다.']);
  });
});
