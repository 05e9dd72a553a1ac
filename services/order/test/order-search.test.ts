import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { client, orderSuite, tiktokLikes } from './support.ts';

/** The operators' order search (issue 12): member, status, product, exact link; staff may use it. */
const suite = orderSuite([tiktokLikes, { serviceId: 2, text: '틱톡 팔로워', platformId: 3, min: 10, max: 1000, unitPriceDeci: 40, enableAuto: true }]);

type Row = { id: number; serviceId: number; link: string; userId: string; status: number };
type PageOf<T> = { items: T[]; hasNext: boolean };

async function order(userId: string, serviceId: number, link: string) {
  suite.h.stand.balances.set(userId, (suite.h.stand.balances.get(userId) ?? 0) + 1_000_000);
  const res = await client(suite.h.base, userId).post<{ order: Row }>('/orders', { serviceId, link, amount: 100 });
  expect(res.status).toBe(201);
  return res.body.order;
}

describe('GET /admin/orders/search', () => {
  it('combines member, product, link and status, newest first', async () => {
    const a = `m-${randomUUID().slice(0, 8)}`;
    const link = `https://www.tiktok.com/@search-${randomUUID().slice(0, 6)}`;
    const first = await order(a, 1, link);
    const second = await order(a, 2, link);
    const third = await order(a, 1, 'https://www.tiktok.com/@someone-else');
    const staff = client(suite.h.base, 'staff-1', 'staff');
    const ids = async (query: string) => (await staff.get<PageOf<Row>>(`/admin/orders/search?${query}`)).body.items.map((o) => o.id);
    expect(await ids(`userId=${a}`)).toEqual([third.id, second.id, first.id]);
    expect(await ids(`userId=${a}&serviceId=1`)).toEqual([third.id, first.id]);
    expect(await ids(`link=${encodeURIComponent(link)}`)).toEqual([second.id, first.id]);
    expect(await ids(`link=${encodeURIComponent(link)}&serviceId=2&status=0`)).toEqual([second.id]);
    expect(await ids(`userId=${a}&status=2`)).toEqual([]);
    expect(await ids(`id=${second.id}`)).toEqual([second.id]);
    expect((await staff.get('/admin/orders/search?serviceId=abc')).status).toBe(400);
    expect((await client(suite.h.base, a).get('/admin/orders/search')).status).toBe(403);
  });
});
