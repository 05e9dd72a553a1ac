import { describe, expect, it } from 'vitest';
import { api, asAdmin, stack } from './support/client.ts';
import { member, requestTopUp } from './support/money.ts';

type Row = { id: number; userId: string; loginId: string | null; name: string; receiptIssuedAt: string | null; status: number };

/** The operators' top-up queue as the console uses it (issue 12), on the real devstack. */
describe('operator top-up queue', () => {
  it('answers login ids and filters by a login id; an unknown login id gives an empty page', async () => {
    const m = await member();
    const asked = await requestTopUp(m, { name: '로그인아이디', point: 5_000, feeType: 'none' });
    const admin = await asAdmin();
    const mine = await api<{ items: Row[] }>('GET', `/admin/top-ups?loginId=${m.id.toUpperCase()}`, { token: admin });
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((t) => [t.id, t.loginId])).toEqual([[asked.body.id, m.id]]);
    expect((await api<{ items: Row[] }>('GET', '/admin/top-ups?loginId=nobody-has-this', { token: admin })).body.items).toEqual([]);
  });

  it('exports the filtered list as CSV with formula-looking cells neutralised', async () => {
    const m = await member();
    await requestTopUp(m, { name: '=HYPERLINK("x")', point: 5_000, feeType: 'cash', feeValue: { phone: '010-1111-2222' } });
    const res = await fetch(`${stack().bffUrl}/api/admin/top-ups.csv?loginId=${m.id}`, { headers: { authorization: `Bearer ${await asAdmin()}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    // The byte-order mark that makes Excel read UTF-8.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).split('\r\n');
    expect(lines[0]).toBe('번호,신청 시각,아이디,입금자명,충전 포인트,입금 금액,영수증,영수증 정보,발행 처리,상태,처리 시각,거절 사유');
    expect(lines[1]).toContain(`,${m.id},"'=HYPERLINK(""x"")",5000,5000,현금영수증,010-1111-2222,,입금 대기,`);
    expect(lines).toHaveLength(3);
    const denied = await fetch(`${stack().bffUrl}/api/admin/top-ups.csv`, { headers: { authorization: `Bearer ${m.token}` } });
    expect(denied.status).toBe(403);
  });

  it('marks a receipt issued once after approval', async () => {
    const m = await member();
    const asked = await requestTopUp(m, { name: '영수증', point: 5_000, feeType: 'cash', feeValue: { phone: '010-1111-3333' } });
    const admin = await asAdmin();
    expect((await api('POST', `/admin/top-ups/${String(asked.body.id)}/receipt-issued`, { token: admin })).body).toMatchObject({ code: 'RECEIPT_NOT_ISSUABLE' });
    await api('POST', `/admin/top-ups/${String(asked.body.id)}/approve`, { token: admin });
    const marked = await api<Row>('POST', `/admin/top-ups/${String(asked.body.id)}/receipt-issued`, { token: admin });
    expect(marked.status).toBe(200);
    expect(marked.body.receiptIssuedAt).toEqual(expect.any(String));
    expect((await api('POST', `/admin/top-ups/${String(asked.body.id)}/receipt-issued`, { token: m.token })).status).toBe(403);
  });
});
