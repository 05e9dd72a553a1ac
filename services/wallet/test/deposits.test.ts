import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import { checkLedger } from '../src/ledger-check.ts';
import { balanceOf, bankNotice, client, walletSuite } from './support.ts';

/** Deposits matched automatically (issue 12, spec §9): a deposit credits at most once. */
const suite = walletSuite();

type DepositView = { id: string; status: string; topUpId: number | null; userId: string | null; amountDeci: number; candidates: number[] };
type Answer<T> = { status: number; body: T };

async function newMember() {
  const userId = await suite.member();
  return { userId, http: client(suite.wallet.base, userId) };
}
const staff = () => client(suite.wallet.base, 'staff-1', 'staff');
/** A unique depositor per test, so tests never match each other's requests. */
const depositor = () => `홍길동${randomUUID().slice(0, 4)}`;
const txId = () => `TX-${randomUUID()}`;

const notify = (body: Record<string, unknown>): Promise<Answer<DepositView>> => bankNotice<DepositView>(suite.wallet.base, body);
const topUpStatus = async (userId: string, id: number) =>
  ((await staff().get<{ items: Array<{ id: number; status: number }> }>(`/admin/top-ups?userId=${userId}&pageSize=100`)).body.items.find((t) => t.id === id)?.status);

describe('a bank notification', () => {
  it('approves the one pending request with that depositor and transfer amount (fee included) at once; a repeat changes nothing', async () => {
    const m = await newMember();
    const name = depositor();
    const asked = await m.http.post<{ id: number; transferDeci: number }>('/top-ups', {
      name,
      point: 10_000,
      feeType: 'fee',
      feeValue: { company: '주식회사 스마일', businessNumber: '123-45-67890', leader: '김대표', phone: '010-1234-5678', email: 'tax@example.co.kr' },
    });
    const transaction = txId();
    // The bank writes the name with a space; the fee-included amount is 11,000 won.
    const first = await notify({ transactionId: transaction, depositorName: ` ${name.slice(0, 1)} ${name.slice(1)} `, amount: asked.body.transferDeci / 10 });
    expect(first).toMatchObject({ status: 201, body: { status: 'matched', topUpId: asked.body.id, userId: m.userId } });
    expect(await balanceOf(suite.wallet.base, m.userId)).toBe(100_000);
    expect(await topUpStatus(m.userId, asked.body.id)).toBe(1);
    const again = await notify({ transactionId: transaction, depositorName: name, amount: asked.body.transferDeci / 10 });
    expect(again).toMatchObject({ status: 200, body: { id: first.body.id, status: 'matched' } });
    expect(await balanceOf(suite.wallet.base, m.userId)).toBe(100_000);
  });

  it('credits once when the same transaction is notified many times at once', async () => {
    const m = await newMember();
    const name = depositor();
    await m.http.post('/top-ups', { name, point: 5_000, feeType: 'none', feeValue: null });
    const transaction = txId();
    const answers = await Promise.all(Array.from({ length: 6 }, () => notify({ transactionId: transaction, depositorName: name, amount: 5_000 })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await balanceOf(suite.wallet.base, m.userId)).toBe(50_000);
  });

  it('leaves a deposit that fits no request, or fits only outside the window, unmatched', async () => {
    const m = await newMember();
    const name = depositor();
    await m.http.post('/top-ups', { name, point: 5_000, feeType: 'none', feeValue: null });
    expect((await notify({ transactionId: txId(), depositorName: name, amount: 5_001 })).body.status).toBe('unmatched');
    expect((await notify({ transactionId: txId(), depositorName: `${name}x`, amount: 5_000 })).body.status).toBe('unmatched');
    const before = new Date(Date.now() - 60 * 60_000).toISOString();
    expect((await notify({ transactionId: txId(), depositorName: name, amount: 5_000, depositedAt: before })).body.status).toBe('unmatched');
    expect(await balanceOf(suite.wallet.base, m.userId)).toBe(0);
  });

  it.each([
    ['no transaction id', { depositorName: '김', amount: 5000 }, 'TRANSACTION_ID_INVALID'],
    ['no depositor', { transactionId: 'T-1', amount: 5000 }, 'DEPOSITOR_REQUIRED'],
    ['a fraction of a won', { transactionId: 'T-1', depositorName: '김', amount: 10.5 }, 'AMOUNT_INVALID'],
    ['zero', { transactionId: 'T-1', depositorName: '김', amount: 0 }, 'AMOUNT_INVALID'],
    ['an amount as text', { transactionId: 'T-1', depositorName: '김', amount: '5000' }, 'AMOUNT_INVALID'],
    ['a time in the future', { transactionId: 'T-1', depositorName: '김', amount: 5000, depositedAt: '2999-01-01T00:00:00Z' }, 'DEPOSITED_AT_INVALID'],
  ])('answers 400 for %s and records nothing', async (_name, body, code) => {
    expect(await notify(body)).toMatchObject({ status: 400, body: { code } });
    expect((await staff().get<{ items: DepositView[] }>('/admin/deposits?pageSize=100')).body.items.some((d) => d.id === 'bank:T-1')).toBe(false);
  });
});

describe('the operators queue', () => {
  it('an ambiguous deposit is attached to one of the requests it fits, once', async () => {
    // Two members with one open request each (TOP_UP_OPEN_LIMIT is 1), same depositor and amount.
    const other = await newMember();
    const m = await newMember();
    const name = depositor();
    const a = await other.http.post<{ id: number }>('/top-ups', { name, point: 5_000, feeType: 'none', feeValue: null });
    const b = await m.http.post<{ id: number }>('/top-ups', { name, point: 5_000, feeType: 'cash', feeValue: { phone: '01012345678' } });
    const deposit = await notify({ transactionId: txId(), depositorName: name, amount: 5_000 });
    expect(deposit.body).toMatchObject({ status: 'ambiguous', topUpId: null });
    expect(deposit.body.candidates.sort()).toEqual([a.body.id, b.body.id].sort());
    expect(await balanceOf(suite.wallet.base, m.userId)).toBe(0);
    expect(await balanceOf(suite.wallet.base, other.userId)).toBe(0);
    const open = await staff().get<{ items: DepositView[] }>('/admin/deposits?status=open&pageSize=100');
    expect(open.body.items.map((d) => d.id)).toContain(deposit.body.id);
    const path = `/admin/deposits/${encodeURIComponent(deposit.body.id)}/attach`;
    expect(await staff().post(path, { topUpId: b.body.id })).toMatchObject({ status: 200, body: { status: 'attached', topUpId: b.body.id } });
    expect(await staff().post(path, { topUpId: a.body.id })).toMatchObject({ status: 409, body: { code: 'DEPOSIT_RESOLVED' } });
    expect(await balanceOf(suite.wallet.base, m.userId)).toBe(50_000);
    expect(await topUpStatus(other.userId, a.body.id)).toBe(0);
  });

  it('an unmatched deposit goes to a member as an approved top-up of its amount; a request of another amount is refused', async () => {
    const m = await newMember();
    const other = await m.http.post<{ id: number }>('/top-ups', { name: depositor(), point: 5_000, feeType: 'none', feeValue: null });
    const deposit = await notify({ transactionId: txId(), depositorName: '모르는사람', amount: 7_000 });
    const path = `/admin/deposits/${encodeURIComponent(deposit.body.id)}/attach`;
    expect(await staff().post(path, { topUpId: other.body.id })).toMatchObject({ status: 409, body: { code: 'DEPOSIT_AMOUNT_MISMATCH' } });
    expect(await staff().post(path, { topUpId: other.body.id, userId: m.userId })).toMatchObject({ status: 400, body: { code: 'DEPOSIT_TARGET_INVALID' } });
    const attached = await staff().post<DepositView>(path, { userId: m.userId });
    expect(attached).toMatchObject({ status: 200, body: { status: 'attached', userId: m.userId } });
    expect(await balanceOf(suite.wallet.base, m.userId)).toBe(70_000);
    expect(await topUpStatus(m.userId, attached.body.topUpId!)).toBe(1);
    expect((await checkLedger(suite.wallet.store.connection)).violations).toEqual([]);
  });

  it('a deposit entered by hand is matched like a notified one, and listed by status', async () => {
    const m = await newMember();
    const name = depositor();
    const asked = await m.http.post<{ id: number }>('/top-ups', { name, point: 15_000, feeType: 'none', feeValue: null });
    const entered = await staff().post<DepositView>('/admin/deposits', { depositorName: name, amount: 15_000 });
    expect(entered).toMatchObject({ status: 201, body: { status: 'matched', topUpId: asked.body.id } });
    expect(entered.body.id).toMatch(/^manual:/);
    const matched = await staff().get<{ items: DepositView[] }>('/admin/deposits?status=matched&pageSize=100');
    expect(matched.body.items.map((d) => d.id)).toContain(entered.body.id);
    expect((await staff().get('/admin/deposits?status=lost')).status).toBe(400);
    expect((await m.http.get('/admin/deposits')).status).toBe(403);
    expect(await balanceOf(suite.wallet.base, m.userId)).toBe(150_000);
  });
});
