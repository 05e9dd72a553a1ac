import { describe, expect, it } from 'vitest';
import { eventually } from '@smm/testkit';
import { api, asAdmin } from './support/client.ts';
import { type Member, member, order, product } from './support/money.ts';

type Json = Record<string, unknown>;
type Ticket = { id: number; status: string; unread: boolean; orderIds: number[]; messages: Array<{ author: string; body: string; authorLoginId?: string | null }> };

const open = (m: Member, body: Json) => api<Ticket & Json>('POST', '/support/tickets', { token: m.token, body: { category: 'order', title: '주문 문의', body: '확인 부탁드립니다.', ...body } });
const ticketsOf = async (m: Member) => (await api<{ items: Ticket[] }>('GET', '/support/tickets', { token: m.token })).body.items;

/** Support tickets (issue 40) through the BFF on the whole devstack: BFF → order (ownership) → support → Kafka → audit. */
describe('support tickets', () => {
  it("a member names only their own orders; another member can neither read, write to, close nor mark the ticket, nor name its orders", async () => {
    const a = await member(5_000);
    const b = await member();
    const p = await product({}, a);
    const placed = await order(a, { serviceId: p.id, link: 'my_profile', amount: 100 });
    expect(placed.status).toBe(201);
    const orderId = (placed.body.order as { id: number }).id;

    // b names a's order, an unknown number, a malformed list: refused in Korean, nothing stored.
    expect(await open(b, { orderIds: [orderId] })).toMatchObject({ status: 400, body: { code: 'ORDER_NOT_FOUND', message: expect.stringContaining(`#${orderId}`) } });
    expect(await open(a, { orderIds: [orderId, 999_999_999] })).toMatchObject({ status: 400, body: { code: 'ORDER_NOT_FOUND', message: expect.stringContaining('#999999999') } });
    expect(await open(a, { orderIds: 'abc' })).toMatchObject({ status: 400, body: { code: 'ORDER_IDS_INVALID', message: '주문번호는 숫자로 입력해 주세요. 여러 개는 쉼표로 구분합니다.' } });
    expect(await open(a, { body: '  ' })).toMatchObject({ status: 400, body: { code: 'BODY_REQUIRED', message: '내용을 입력해 주세요.' } });
    expect(await open(a, { body: '숨은\u202E문자' })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect(await ticketsOf(a)).toEqual([]);
    expect(await ticketsOf(b)).toEqual([]);

    // a's own order, as a "#12, 34"-style text; markup is stored as typed (the screens show it as text).
    const xss = '<img src=x onerror=alert(1)>\n두 번째 줄';
    const created = await open(a, { orderIds: `#${orderId}`, body: xss });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'open', orderIds: [orderId], messages: [{ author: 'member', body: xss }] });
    const id = created.body.id;

    for (const [method, path] of [
      ['GET', `/support/tickets/${id}`],
      ['POST', `/support/tickets/${id}/messages`],
      ['POST', `/support/tickets/${id}/read`],
      ['POST', `/support/tickets/${id}/close`],
    ] as const) {
      const answer = await api(method, path, { token: b.token, body: method === 'POST' ? { body: '끼어들기' } : undefined });
      expect(answer, `${method} ${path}`).toMatchObject({ status: 404, body: { code: 'TICKET_NOT_FOUND', message: '문의를 찾을 수 없습니다.' } });
    }
    expect((await api('GET', `/support/tickets/${id}`, { token: a.token })).status).toBe(200);
    expect((await api('GET', '/admin/support/tickets', { token: a.token })).status).toBe(403);
    expect((await api('GET', '/support/tickets')).status).toBe(401);
    expect((await api<{ messages: unknown[] }>('GET', `/support/tickets/${id}`, { token: a.token })).body.messages).toHaveLength(1);

    // The operator's queue names the member and the order; the answer is unread for a until read; audited.
    const admin = await asAdmin();
    const queue = await api<{ items: Array<{ id: number; loginId: string }> }>('GET', `/admin/support/tickets?loginId=${a.id}&status=open`, { token: admin });
    expect(queue.body.items).toEqual([expect.objectContaining({ id, loginId: a.id })]);
    const detail = await api<{ orders: Array<{ id: number; serviceText: string }> }>('GET', `/admin/support/tickets/${id}`, { token: admin });
    expect(detail.body.orders).toEqual([expect.objectContaining({ id: orderId, serviceText: p.text })]);
    const reply = await api<Ticket>('POST', `/admin/support/tickets/${id}/replies`, { token: admin, body: { body: '확인했습니다.\n곧 시작됩니다.' } });
    expect(reply.status).toBe(201);
    expect(reply.body.messages[1]).toMatchObject({ author: 'operator', authorLoginId: 'admin', body: '확인했습니다.\n곧 시작됩니다.' });
    expect((await api('GET', '/support/unread', { token: a.token })).body).toEqual({ count: 1 });
    expect((await api('GET', '/support/unread', { token: b.token })).body).toEqual({ count: 0 });
    expect((await api('POST', `/support/tickets/${id}/read`, { token: a.token })).status).toBe(204);
    expect((await api('GET', '/support/unread', { token: a.token })).body).toEqual({ count: 0 });
    const audit = await eventually(() => api<{ items: Array<{ action: string }> }>('GET', `/admin/audit?target=${id}&targetType=ticket`, { token: admin }), (r) => r.body.items?.length > 0, 30_000);
    expect(audit.body.items.map((r) => r.action)).toEqual(['support.ticket.reply']);
  });
});
