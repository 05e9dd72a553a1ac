import { describe, expect, it } from 'vitest';
import { eventually } from '@smm/testkit';
import { api, asAdmin } from './support/client.ts';
import { member, requestTopUp } from './support/money.ts';

type Row = {
  at: string;
  actor: { userId: string; loginId: string | null; role: string };
  action: string;
  target: { type: string; id: string; loginId: string | null };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};
type Page = { items: Row[]; page: number; hasNext: boolean };

/** The audit log as the console reads it (issue 12), on the real devstack: wallet → audit topic → auth → BFF. */
describe('operator audit log', () => {
  it("finds an admin's approval and role change by target, actor login id and action, with login ids", async () => {
    const admin = await asAdmin();
    const m = await member();
    const asked = await requestTopUp(m, { name: '감사기록', point: 5_000, feeType: 'none' });
    const id = String(asked.body.id);
    expect((await api('POST', `/admin/top-ups/${id}/approve`, { token: admin })).status).toBe(200);
    const found = await eventually(() => api<Page>('GET', `/admin/audit?target=${id}&targetType=topup`, { token: admin }), (r) => r.body.items?.length > 0, 30_000);
    expect(found.body.items).toEqual([
      expect.objectContaining({ actor: expect.objectContaining({ loginId: 'admin', role: 'admin' }), action: 'wallet.topup.approve', target: { type: 'topup', id, loginId: null }, before: { status: 0 }, after: { status: 1 } }),
    ]);

    expect((await api('PUT', `/admin/members/${m.userId}/role`, { token: admin, body: { role: 'staff' } })).status).toBe(200);
    const role = await eventually(() => api<Page>('GET', `/admin/audit?actor=ADMIN&action=auth.member.role&target=${m.userId}`, { token: admin }), (r) => r.body.items?.length > 0, 30_000);
    expect(role.body.items[0]).toMatchObject({ target: { type: 'member', id: m.userId, loginId: m.id }, before: { role: 'member' }, after: { role: 'staff' } });
    const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
    expect((await api<Page>('GET', `/admin/audit?target=${m.userId}&from=${today}&to=${today}`, { token: admin })).body.items).toHaveLength(1);

    // The new staff member may not read the log; nor may a member; a malformed filter is a 400 in Korean.
    const staffLogin = await api<{ accessToken: string }>('POST', '/auth/login', { body: { id: m.id, password: m.password } });
    expect((await api('GET', '/admin/audit', { token: staffLogin.body.accessToken })).status).toBe(403);
    const plain = await member();
    expect((await api('GET', '/admin/audit', { token: plain.token })).status).toBe(403);
    const bad = await api<{ message: string }>('GET', '/admin/audit?from=어제', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/[가-힣]/);
  });
});
