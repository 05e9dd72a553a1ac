import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Topics } from '@smm/contracts';
import { balanceOf, bankNotice, client, eventually, walletSuite } from './support.ts';

/**
 * Decoy top-up requests (issue 39): one member opening requests under common names to capture
 * other people's deposits. One open request per member (TOP_UP_OPEN_LIMIT), a few an hour
 * (TOP_UP_HOURLY_LIMIT), a member whose requests keep expiring unpaid is held, and a deposit is
 * matched only when exactly one open request fits.
 */
const suite = walletSuite();

type TopUp = { id: number; status: number; memberExpiredRecently?: number };
type Deposit = { id: string; status: string; topUpId: number | null; userId: string | null };
type ErrorBody = { code: string; message: string };

const admin = () => client(suite.wallet.base, 'admin-1', 'admin');
const notify = async (depositorName: string, amount: number) => (await bankNotice<Deposit>(suite.wallet.base, { transactionId: `TX-${randomUUID()}`, depositorName, amount })).body;
const pendingOf = async (userId: string) => (await admin().get<{ items: TopUp[] }>(`/admin/top-ups?userId=${userId}&status=0&pageSize=100`)).body.items;
const setSetting = async (key: string, value: string) => {
  await suite.publisher.publish(Topics.catalog, [suite.publisher.setting(key, value)]);
  await eventually(() => suite.wallet.store.settings.get(key), (v) => v === value, 20_000);
};

describe('decoy requests', () => {
  it('a member cannot open 50 requests (10 names × 5 amounts); genuine deposits match only the one request that fits', async () => {
    const suffix = randomUUID().slice(0, 4);
    const names = ['김민수', '이영희', '박지훈', '최수진', '정민호', '강서연', '조현우', '윤지은', '장동현', '임하늘'].map((n) => `${n}${suffix}`);
    const amounts = [10_000, 30_000, 50_000, 100_000, 200_000];
    const decoy = await suite.member();
    const answers: Array<{ status: number; body: ErrorBody }> = [];
    for (const name of names) for (const point of amounts) answers.push(await client(suite.wallet.base, decoy).post<ErrorBody>('/top-ups', { name, point, feeType: 'none', feeValue: null }));
    expect(answers[0]!.status).toBe(201);
    expect(answers.slice(1).every((a) => a.status === 409 && a.body.code === 'TOPUP_OPEN_LIMIT')).toBe(true);
    expect(answers[1]!.body.message).toBe('입금 대기 중인 충전 신청이 이미 1건 있습니다. 입금을 마치시거나 신청이 만료된 뒤 다시 신청해 주세요.');
    expect(await pendingOf(decoy)).toHaveLength(1);

    // Two genuine members ask and transfer under two of the decoy's names.
    const kim = await suite.member();
    const lee = await suite.member();
    const kimAsked = await client(suite.wallet.base, kim).post<TopUp>('/top-ups', { name: names[0], point: 50_000, feeType: 'none', feeValue: null });
    const leeAsked = await client(suite.wallet.base, lee).post<TopUp>('/top-ups', { name: names[1], point: 30_000, feeType: 'none', feeValue: null });
    const kimDeposit = await notify(names[0]!.replace('김', '김 '), 50_000);
    expect(kimDeposit).toMatchObject({ status: 'matched', topUpId: kimAsked.body.id, userId: kim });
    expect(await notify(names[1]!, 30_000)).toMatchObject({ status: 'matched', topUpId: leeAsked.body.id, userId: lee });
    expect(await balanceOf(suite.wallet.base, kim)).toBe(500_000);
    expect(await balanceOf(suite.wallet.base, lee)).toBe(300_000);
    expect(await balanceOf(suite.wallet.base, decoy)).toBe(0);
  });

  it('a deposit that fits two open requests is not matched to either: it waits for an operator', async () => {
    const name = `동명이인${randomUUID().slice(0, 4)}`;
    const [a, b] = [await suite.member(), await suite.member()];
    for (const m of [a, b]) expect((await client(suite.wallet.base, m).post('/top-ups', { name, point: 50_000, feeType: 'none', feeValue: null })).status).toBe(201);
    expect(await notify(name, 50_000)).toMatchObject({ status: 'ambiguous', topUpId: null, userId: null });
    expect([await balanceOf(suite.wallet.base, a), await balanceOf(suite.wallet.base, b)]).toEqual([0, 0]);
  });

  it('a member whose requests expired unpaid 3 times this week is held: new requests are refused and operators see the count', async () => {
    const m = await suite.member();
    const http = client(suite.wallet.base, m);
    for (let i = 0; i < 3; i++) {
      const asked = await http.post<TopUp>('/top-ups', { name: '만료회원', point: 5_000 + i * 5_000, feeType: 'none', feeValue: null });
      expect(asked.status).toBe(201);
      await suite.publisher.publish(Topics.scheduler, [suite.publisher.expiryDue(asked.body.id, m)]);
      await eventually(() => pendingOf(m), (p) => p.length === 0, 20_000);
    }
    const held = await http.post<ErrorBody>('/top-ups', { name: '만료회원', point: 50_000, feeType: 'none', feeValue: null });
    expect(held).toMatchObject({ status: 403, body: { code: 'TOPUP_HELD', message: expect.stringContaining('새 충전 신청이 제한') } });
    const rows = (await admin().get<{ items: Array<TopUp & { expired: boolean }> }>(`/admin/top-ups?userId=${m}`)).body.items;
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.expired && r.memberExpiredRecently === 3)).toBe(true);
  });

  it('a member cancels their own pending request (issue 40): the open slot frees, a mix of cancels and expiries still ends in the hold, and nothing is credited', async () => {
    const m = await suite.member();
    const other = await suite.member();
    const http = client(suite.wallet.base, m);
    const first = await http.post<TopUp>('/top-ups', { name: '취소회원', point: 10_000, feeType: 'none', feeValue: null });
    expect(first.status).toBe(201);
    // Not someone else's, not an operator's shortcut: another member's cancel answers like a missing request.
    expect(await client(suite.wallet.base, other).post<ErrorBody>(`/top-ups/${first.body.id}/cancel`, {})).toMatchObject({ status: 404, body: { code: 'TOPUP_NOT_FOUND' } });
    const canceled = await http.post<TopUp & { endedBy: string; responseAt: string | null }>(`/top-ups/${first.body.id}/cancel`, {});
    expect(canceled).toMatchObject({ status: 200, body: { id: first.body.id, status: 2, endedBy: 'member', rejectReason: null } });
    expect(canceled.body.responseAt).not.toBeNull();
    expect(await http.post<ErrorBody>(`/top-ups/${first.body.id}/cancel`, {})).toMatchObject({ status: 409, body: { code: 'TOPUP_NOT_PENDING', message: '이미 처리된 충전 요청입니다.' } });
    // A deposit for the cancelled request matches nothing: it waits for an operator, nothing is credited.
    expect(await notify('취소회원', 10_000)).toMatchObject({ topUpId: null, userId: null });
    // The open slot is free again (TOP_UP_OPEN_LIMIT 1) ...
    const second = await http.post<TopUp>('/top-ups', { name: '취소회원', point: 15_000, feeType: 'none', feeValue: null });
    expect(second.status).toBe(201);
    expect((await http.post(`/top-ups/${second.body.id}/cancel`, {})).status).toBe(200);
    // ... but cancelling is no way around the hold: two cancels and one expiry make three unpaid ends.
    const third = await http.post<TopUp>('/top-ups', { name: '취소회원', point: 20_000, feeType: 'none', feeValue: null });
    expect(third.status).toBe(201);
    await suite.publisher.publish(Topics.scheduler, [suite.publisher.expiryDue(third.body.id, m)]);
    await eventually(() => pendingOf(m), (p) => p.length === 0, 20_000);
    expect(await http.post<ErrorBody>('/top-ups', { name: '취소회원', point: 50_000, feeType: 'none', feeValue: null })).toMatchObject({ status: 403, body: { code: 'TOPUP_HELD' } });
    const rows = (await admin().get<{ items: TopUp[] }>(`/admin/top-ups?userId=${m}`)).body.items;
    expect(rows.every((r) => r.status === 2 && r.memberExpiredRecently === 3)).toBe(true);
    // The member's history says who ended each request.
    const history = (await http.get<{ items: Array<{ id: number; endedBy: string }> }>(`/top-ups`)).body.items;
    expect(history.map((r) => r.endedBy)).toEqual(['expiry', 'member', 'member']);
    expect(await balanceOf(suite.wallet.base, m)).toBe(0);
  });

  it('at most TOP_UP_HOURLY_LIMIT (5) requests an hour, even with a higher open limit', async () => {
    await setSetting('TOP_UP_OPEN_LIMIT', '10');
    try {
      const m = await suite.member();
      const http = client(suite.wallet.base, m);
      for (let i = 1; i <= 5; i++) expect((await http.post('/top-ups', { name: '빠른신청', point: i * 5_000, feeType: 'none', feeValue: null })).status).toBe(201);
      expect(await http.post<ErrorBody>('/top-ups', { name: '빠른신청', point: 50_000, feeType: 'none', feeValue: null })).toMatchObject({
        status: 429,
        body: { code: 'TOPUP_RATE_LIMIT', message: '충전 신청은 1시간에 5건까지 할 수 있습니다. 잠시 후 다시 신청해 주세요.' },
      });
      expect(await pendingOf(m)).toHaveLength(5);
    } finally {
      await setSetting('TOP_UP_OPEN_LIMIT', '1');
    }
  });
});
