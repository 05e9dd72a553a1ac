import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from '@smm/testkit';
import { signDeposit } from '../../src/domain/deposit-signature.ts';
import { api, asAdmin, stack } from './support/client.ts';
import { member, pointDeciOf, requestTopUp } from './support/money.ts';

/** The devstack made the shared secret into its data directory (never in the repository). */
const secret = () => (JSON.parse(readFileSync(join(stack().dataDir, 'secrets.json'), 'utf8')) as { depositWebhookSecret: string }).depositWebhookSecret;

async function notify(payload: unknown, options: { timestamp?: number; sign?: (ts: string, raw: string) => string } = {}) {
  const raw = JSON.stringify(payload);
  const ts = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const res = await fetch(`${stack().bffUrl}/api/deposits/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-deposit-timestamp': ts, 'x-deposit-signature': (options.sign ?? ((t, r) => signDeposit(secret(), t, r)))(ts, raw) },
    body: raw,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('bank deposit notifications (POST /api/deposits/notify)', () => {
  it('a signed notification approves the fitting request at once; the same transaction again credits nothing', async () => {
    const m = await member();
    const name = `입금${m.id.slice(-4)}`;
    const asked = await requestTopUp(m, { name, point: 10_000, feeType: 'fee', feeValue: { company: '주식회사 예시', businessNumber: '123-45-67890', leader: '김대표', phone: '010-1234-5678', email: 'tax@example.com' } });
    // The amount to transfer is 11,000 with the tax-invoice fee, 10,000 while another suite has
    // the fee setting off: the bank sends whatever the request asked for.
    expect([110_000, 100_000]).toContain(asked.body.transferDeci);
    const payload = { transactionId: `E2E-${m.id}`, depositorName: name, amount: Number(asked.body.transferDeci) / 10, depositedAt: new Date().toISOString() };
    expect(await notify(payload)).toMatchObject({ status: 201, body: { status: 'matched' } });
    await eventually(() => pointDeciOf(m), (deci) => deci === 100_000, 20_000);
    expect(await notify(payload)).toMatchObject({ status: 200, body: { status: 'matched' } });
    expect(await pointDeciOf(m)).toBe(100_000);
  });

  it('refuses a wrong signature or an old timestamp with 401, recording nothing', async () => {
    const payload = { transactionId: `E2E-BAD-${Date.now()}`, depositorName: '누구', amount: 5_000 };
    expect(await notify(payload, { sign: (t, r) => signDeposit(`${secret()}x`, t, r) })).toMatchObject({ status: 401, body: { code: 'SIGNATURE_INVALID' } });
    expect(await notify(payload, { sign: () => 'sha256=deadbeef' })).toMatchObject({ status: 401, body: { code: 'SIGNATURE_INVALID' } });
    expect(await notify(payload, { timestamp: Math.floor(Date.now() / 1000) - 3600 })).toMatchObject({ status: 401, body: { code: 'TIMESTAMP_STALE' } });
    const list = await api<{ items: Array<{ transactionId: string }> }>('GET', '/admin/deposits?pageSize=100', { token: await asAdmin() });
    expect(list.body.items.some((d) => d.transactionId === payload.transactionId)).toBe(false);
  });

  it('an unmatched deposit waits in the operators queue and is attached to a member by login id', async () => {
    const m = await member();
    const payload = { transactionId: `E2E-UN-${m.id}`, depositorName: '알수없음', amount: 12_345 };
    const recorded = await notify(payload);
    expect(recorded.body.status).toBe('unmatched');
    const admin = await asAdmin();
    const open = await api<{ items: Array<{ id: string }> }>('GET', '/admin/deposits?status=unmatched&pageSize=100', { token: admin });
    expect(open.body.items.map((d) => d.id)).toContain(recorded.body.id);
    const path = `/admin/deposits/${encodeURIComponent(String(recorded.body.id))}/attach`;
    expect((await api('POST', path, { token: m.token, body: { loginId: m.id } })).status).toBe(403);
    expect(await api('POST', path, { token: admin, body: { loginId: 'nobody-at-all' } })).toMatchObject({ status: 404, body: { code: 'MEMBER_NOT_FOUND' } });
    expect(await api('POST', path, { token: admin, body: { loginId: m.id } })).toMatchObject({ status: 200, body: { status: 'attached', userId: m.userId } });
    await eventually(() => pointDeciOf(m), (deci) => deci === 123_450, 20_000);
    const attached = await api<{ items: Array<{ id: string; loginId: string | null }> }>('GET', '/admin/deposits?status=attached&pageSize=100', { token: admin });
    expect(attached.body.items.find((d) => d.id === recorded.body.id)?.loginId).toBe(m.id);
  });
});
