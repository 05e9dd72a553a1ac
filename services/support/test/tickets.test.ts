import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecordsInOutbox } from '@smm/platform';
import { forgedCallerHeaders } from '@smm/testkit';
import { type Infra, type Support, type Who, call, startInfra, startSupport, ticketEvents } from './support.ts';

let infra: Infra;
let support: Support;
let counter = 0;
const member = (): Who => ({ userId: `member-${++counter}`, role: 'member' });
const staff: Who = { userId: 'staff-1', role: 'staff' };
const admin: Who = { userId: 'admin-1', role: 'admin' };

type Ticket = { id: number; userId: string; status: string; unread: boolean; orderIds: number[]; messageCount: number; messages: Array<{ id: number; author: string; body: string; authorId?: string }> };

const open = (who: Who, body: Record<string, unknown> = {}) =>
  call<Ticket>(support, who, 'POST', '/tickets', { category: 'order', title: '주문이 시작되지 않아요', body: '어제 넣은 주문이 그대로입니다.', ...body });
const ticketCount = (userId: string) => support.store.tickets.countDocuments({ userId });

beforeAll(async () => {
  infra = await startInfra();
  support = await startSupport(infra);
}, 120_000);
afterAll(async () => {
  await support?.close();
  await infra?.stop();
});

describe('members and their own tickets', () => {
  it('opens a ticket with its first message and order numbers; only its member reads, writes, marks or closes it', async () => {
    const owner = member();
    const other = member();
    const created = await open(owner, { orderIds: [12, 7, 12] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ userId: owner.userId, category: 'order', status: 'open', orderIds: [12, 7], messageCount: 1, unread: false });
    expect(created.body.messages).toEqual([expect.objectContaining({ id: 1, author: 'member', body: '어제 넣은 주문이 그대로입니다.' })]);
    const id = created.body.id;

    expect((await call(support, owner, 'GET', `/tickets/${id}`)).status).toBe(200);
    // Someone else's ticket answers exactly like a missing one, for every member route.
    for (const [method, path, body] of [
      ['GET', `/tickets/${id}`],
      ['POST', `/tickets/${id}/messages`, { body: '남의 문의에 끼어들기' }],
      ['POST', `/tickets/${id}/read`],
      ['POST', `/tickets/${id}/close`],
    ] as const) {
      const answer = await call(support, other, method, path, body);
      expect(answer, `${method} ${path}`).toMatchObject({ status: 404, body: { code: 'TICKET_NOT_FOUND', message: '문의를 찾을 수 없습니다.' } });
    }
    expect((await call<{ items: Ticket[] }>(support, other, 'GET', '/tickets')).body.items).toEqual([]);
    expect((await call<{ items: Ticket[] }>(support, owner, 'GET', '/tickets')).body.items.map((t) => t.id)).toEqual([id]);
    const stored = await support.store.tickets.findById(id).lean();
    expect(stored?.messages).toHaveLength(1);
    expect(stored?.status).toBe('open');
  });

  it('refuses bad input with a Korean message and stores nothing; markup is kept as plain text', async () => {
    const who = member();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ body: '   ' }, 'BODY_REQUIRED', '내용을 입력해 주세요.'],
      [{ body: '' }, 'BODY_REQUIRED', '내용을 입력해 주세요.'],
      [{ title: '' }, 'TITLE_REQUIRED', '제목을 입력해 주세요.'],
      [{ category: 'refund' }, 'CATEGORY_INVALID', '문의 유형을 선택해 주세요. (주문, 결제, 계정, 기타)'],
      [{ title: '가'.repeat(101) }, 'TITLE_TOO_LONG', '제목은 100자 이내로 입력해 주세요.'],
      [{ body: '가'.repeat(2001) }, 'BODY_TOO_LONG', '내용은 2,000자 이내로 입력해 주세요.'],
      [{ orderIds: [1, 2, 3, 4, 5, 6] }, 'ORDERS_TOO_MANY', '주문번호는 5개까지 연결할 수 있습니다.'],
      [{ body: 'a\u202Eb' }, 'TEXT_UNSAFE', '입력할 수 없는 문자(제어 문자·방향 제어 문자)가 포함되어 있습니다.'],
    ];
    for (const [body, code, message] of cases) expect(await open(who, body), code).toMatchObject({ status: 400, body: { code, message } });
    expect(await ticketCount(who.userId)).toBe(0);
    // Refused input spent none of the member's messages of the minute.
    const xss = '<script>alert("x")</script><img src=x onerror=alert(1)>';
    const created = await open(who, { body: xss, title: '<b>굵게</b>' });
    expect(created.status).toBe(201);
    expect(created.body.messages[0]!.body).toBe(xss);
    expect(created.body).toMatchObject({ title: '<b>굵게</b>' });
  });

  it('limits open tickets per member and messages per sliding minute (the clock moved, not slept)', async () => {
    const who = member();
    const first = await open(who);
    await open(who);
    expect(await open(who)).toMatchObject({ status: 409, body: { code: 'TOO_MANY_OPEN_TICKETS', message: expect.stringContaining('이미 2건') } });
    expect(await ticketCount(who.userId)).toBe(2);
    // Three messages a minute: two tickets were opened, one more message fits.
    expect((await call(support, who, 'POST', `/tickets/${first.body.id}/messages`, { body: '추가로 알려 드립니다.' })).status).toBe(201);
    expect(await call(support, who, 'POST', `/tickets/${first.body.id}/messages`, { body: '한 번 더' })).toMatchObject({ status: 429, body: { code: 'TOO_MANY_MESSAGES', message: expect.stringContaining('1분에 3건') } });
    expect((await support.store.tickets.findById(first.body.id).lean())?.messageCount).toBe(2);
    support.clock.advance(61_000);
    expect((await call(support, who, 'POST', `/tickets/${first.body.id}/messages`, { body: '한 번 더' })).status).toBe(201);
    // Closing one frees a place for a new ticket.
    expect((await call(support, who, 'POST', `/tickets/${first.body.id}/close`)).status).toBe(200);
    expect((await open(who)).status).toBe(201);
    expect(await call(support, who, 'POST', `/tickets/${first.body.id}/messages`, { body: '닫힌 문의' })).toMatchObject({ status: 409, body: { code: 'TICKET_CLOSED' } });
    support.clock.advance(61_000);
  });
});

describe('operators', () => {
  it('answer (answered, unread for the member, TicketAnswered and an audit record), then the member reads and writes again', async () => {
    const who = member();
    const { body: ticket } = await open(who);
    const reply = await call<Ticket>(support, staff, 'POST', `/admin/tickets/${ticket.id}/replies`, { body: '확인해 보겠습니다.\n잠시만 기다려 주세요.' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ status: 'answered', unread: true, messageCount: 2 });
    expect(reply.body.messages[1]).toMatchObject({ author: 'operator', authorId: 'staff-1', body: '확인해 보겠습니다.\n잠시만 기다려 주세요.' });
    // The member's view never names the operator.
    const seen = await call<Ticket>(support, who, 'GET', `/tickets/${ticket.id}`);
    expect(seen.body.messages[1]).not.toHaveProperty('authorId');
    expect((await call(support, who, 'GET', '/tickets/unread')).body).toEqual({ count: 1 });
    expect((await call(support, who, 'POST', `/tickets/${ticket.id}/read`)).status).toBe(204);
    expect((await call(support, who, 'GET', '/tickets/unread')).body).toEqual({ count: 0 });
    expect((await call<Ticket>(support, who, 'POST', `/tickets/${ticket.id}/messages`, { body: '감사합니다' })).body).toMatchObject({ status: 'open', messageCount: 3 });

    expect((await ticketEvents(support, ticket.id)).map((e) => [e.type, e.data])).toEqual([['TicketAnswered', { ticketId: ticket.id, userId: who.userId, messageId: 2 }]]);
    const audit = await auditRecordsInOutbox(support.connection, String(ticket.id), 'ticket');
    expect(audit).toEqual([
      expect.objectContaining({ actor: { userId: 'staff-1', role: 'staff' }, service: 'support', action: 'support.ticket.reply', before: { status: 'open' }, after: { status: 'answered', message: '확인해 보겠습니다.\n잠시만 기다려 주세요.' } }),
    ]);

    // Close and reopen are audited too; a closed ticket takes no answer.
    expect((await call<Ticket>(support, admin, 'POST', `/admin/tickets/${ticket.id}/close`)).body).toMatchObject({ status: 'closed' });
    expect(await call(support, staff, 'POST', `/admin/tickets/${ticket.id}/replies`, { body: '추가 답변' })).toMatchObject({ status: 409, body: { code: 'TICKET_CLOSED' } });
    expect(await call(support, admin, 'POST', `/admin/tickets/${ticket.id}/close`)).toMatchObject({ status: 409, body: { code: 'TICKET_ALREADY_CLOSED' } });
    expect((await call<Ticket>(support, staff, 'POST', `/admin/tickets/${ticket.id}/reopen`)).body).toMatchObject({ status: 'open' });
    expect((await auditRecordsInOutbox(support.connection, String(ticket.id), 'ticket')).map((r) => [r.action, r.actor.userId])).toEqual([
      ['support.ticket.reply', 'staff-1'],
      ['support.ticket.close', 'admin-1'],
      ['support.ticket.reopen', 'staff-1'],
    ]);
    expect((await ticketEvents(support, ticket.id)).map((e) => [e.type, e.data.by])).toEqual([
      ['TicketAnswered', undefined],
      ['TicketClosed', 'operator'],
    ]);
  });

  it('may not answer, close or reopen their own ticket (SELF_ACTION), and nothing changes', async () => {
    const ownStaff: Who = { userId: 'staff-self', role: 'staff' };
    const { body: ticket } = await open(ownStaff);
    for (const path of ['replies', 'close']) {
      expect(await call(support, ownStaff, 'POST', `/admin/tickets/${ticket.id}/${path}`, { body: '셀프 답변' }), path).toMatchObject({ status: 403, body: { code: 'SELF_ACTION' } });
    }
    const stored = await support.store.tickets.findById(ticket.id).lean();
    expect(stored).toMatchObject({ status: 'open', messageCount: 1, memberUnread: false });
    expect(await auditRecordsInOutbox(support.connection, String(ticket.id), 'ticket')).toEqual([]);
  });

  it('list the queue by state, category, member and order number; members and forged callers are refused', async () => {
    const who = member();
    const { body: a } = await open(who, { category: 'payment', orderIds: [4242] });
    const { body: b } = await open(who, { category: 'account' });
    await call(support, staff, 'POST', `/admin/tickets/${b.id}/replies`, { body: '답변' });
    const ids = async (query: string) => (await call<{ items: Ticket[] }>(support, staff, 'GET', `/admin/tickets?${query}`)).body.items.map((t) => t.id);
    expect(await ids(`userId=${who.userId}&status=open`)).toEqual([a.id]);
    expect(await ids(`userId=${who.userId}&status=answered`)).toEqual([b.id]);
    expect(await ids('orderId=4242')).toEqual([a.id]);
    expect(await ids(`userId=${who.userId}&category=account`)).toEqual([b.id]);
    expect(await call(support, staff, 'GET', '/admin/tickets?status=pending')).toMatchObject({ status: 400, body: { message: '검색 조건이 올바르지 않습니다.' } });
    expect(await call(support, who, 'GET', '/admin/tickets')).toMatchObject({ status: 403, body: { code: 'ADMIN_ONLY' } });
    expect(await call(support, who, 'POST', `/admin/tickets/${a.id}/replies`, { body: '회원이 운영자인 척' })).toMatchObject({ status: 403 });
    for (const [name, headers] of Object.entries(forgedCallerHeaders('support'))) {
      expect((await fetch(`${support.base}/admin/tickets`, { headers })).status, name).toBe(401);
    }
    expect((await support.store.tickets.findById(a.id).lean())?.messageCount).toBe(1);
  });

  it('saved replies: staff read them, only admins write them, each change audited', async () => {
    const created = await call<{ id: number }>(support, admin, 'POST', '/admin/saved-replies', { title: '환불 안내', body: '환불은 포인트로 돌려드립니다.' });
    expect(created.status).toBe(201);
    expect(await call(support, staff, 'POST', '/admin/saved-replies', { title: '스태프', body: '본문' })).toMatchObject({ status: 403, body: { code: 'ADMIN_ONLY' } });
    expect(await call(support, staff, 'PATCH', `/admin/saved-replies/${created.body.id}`, { title: '바꿈', body: '본문' })).toMatchObject({ status: 403 });
    expect(await call(support, admin, 'POST', '/admin/saved-replies', { title: '', body: '본문' })).toMatchObject({ status: 400, body: { message: '저장된 답변의 이름을 입력해 주세요.' } });
    expect((await call<{ items: Array<{ title: string }> }>(support, staff, 'GET', '/admin/saved-replies')).body.items.map((r) => r.title)).toEqual(['환불 안내']);
    expect((await call(support, admin, 'PATCH', `/admin/saved-replies/${created.body.id}`, { title: '환불 안내', body: '환불은 3일 안에 처리됩니다.' })).status).toBe(200);
    expect((await call(support, admin, 'DELETE', `/admin/saved-replies/${created.body.id}`)).status).toBe(204);
    expect(await call(support, admin, 'DELETE', `/admin/saved-replies/${created.body.id}`)).toMatchObject({ status: 404, body: { code: 'SAVED_REPLY_NOT_FOUND' } });
    expect((await auditRecordsInOutbox(support.connection, String(created.body.id), 'saved-reply')).map((r) => [r.action, r.before, r.after])).toEqual([
      ['support.reply.create', null, { title: '환불 안내', body: '환불은 포인트로 돌려드립니다.' }],
      ['support.reply.update', { body: '환불은 포인트로 돌려드립니다.' }, { body: '환불은 3일 안에 처리됩니다.' }],
      ['support.reply.delete', { title: '환불 안내', body: '환불은 3일 안에 처리됩니다.' }, null],
    ]);
  });
});
