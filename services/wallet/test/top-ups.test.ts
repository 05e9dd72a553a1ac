import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { Topics } from '@smm/contracts';

import { checkLedger } from '../src/ledger-check.ts';
import { accountOpened, balanceOf, client, eventually, walletSuite } from './support.ts';
import { callerHeaders, forgedCallerHeaders } from '@smm/testkit';

const expirySeconds = 600;
const suite = walletSuite({ collector: 'wallet-test-collector', wallet: { topUpExpirySeconds: expirySeconds } });

// These tests are about one request's rules, several open at once per member: issue 39's limits
// (one open request by default, test/decoys.test.ts) are raised here the way an admin would.
beforeAll(async () => {
  await suite.publisher.publish(Topics.catalog, [suite.publisher.setting('TOP_UP_OPEN_LIMIT', '50'), suite.publisher.setting('TOP_UP_HOURLY_LIMIT', '100')]);
  await eventually(() => suite.wallet.store.settings.get('TOP_UP_HOURLY_LIMIT'), (v) => v === '100', 20_000);
});

type TopUpView = {
  id: number;
  createdAt: string;
  point: number;
  pointDeci: number;
  transferAmount: number;
  transferDeci: number;
  receiptType: string;
  status: number;
  responseAt: string | null;
  expiresAt: string;
};
type Page<T> = { items: T[]; page: number; pageSize: number; hasNext: boolean };
type ErrorBody = { code: string; message: string };

const member = (userId = `member-${randomUUID().slice(0, 8)}`) => ({ userId, http: client(suite.wallet.base, userId) });
const admin = () => client(suite.wallet.base, 'operator-1', 'admin');
const taxInvoice = { company: '주식회사 스마일', businessNumber: '123-45-67890', leader: '김대표', phone: '010-1234-5678', email: 'tax@example.co.kr' };

async function newMember() {
  const m = member();
  await suite.publisher.publish(Topics.auth, [suite.publisher.registered(m.userId)]);
  await accountOpened(suite.wallet.base, m.userId);
  return m;
}

describe('POST /top-ups validation (in the agreed order, 400 with a Korean message)', () => {
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['no depositor', { point: 5000, feeType: 'none' }, 'DEPOSITOR_REQUIRED', '입금자명을 입력해 주세요.'],
    ['blank depositor, bad amount too', { name: '   ', point: 3, feeType: 'card' }, 'DEPOSITOR_REQUIRED', '입금자명을 입력해 주세요.'],
    ['no amount', { name: '홍길동', feeType: 'none' }, 'POINT_INVALID', '충전 금액은 5,000원 단위로 입력해 주세요.'],
    ['zero', { name: '홍길동', point: 0, feeType: 'none' }, 'POINT_INVALID', '충전 금액은 5,000원 단위로 입력해 주세요.'],
    ['not a 5,000 step', { name: '홍길동', point: 7500, feeType: 'none' }, 'POINT_INVALID', '충전 금액은 5,000원 단위로 입력해 주세요.'],
    ['negative', { name: '홍길동', point: -5000, feeType: 'none' }, 'POINT_INVALID', '충전 금액은 5,000원 단위로 입력해 주세요.'],
    ['fraction', { name: '홍길동', point: 5000.5, feeType: 'none' }, 'POINT_INVALID', '충전 금액은 5,000원 단위로 입력해 주세요.'],
    ['text', { name: '홍길동', point: '5천', feeType: 'none' }, 'POINT_INVALID', '충전 금액은 5,000원 단위로 입력해 주세요.'],
    ['above 10,000,000', { name: '홍길동', point: 10_005_000, feeType: 'none' }, 'POINT_INVALID', '충전 금액은 5,000원 단위로 입력해 주세요.'],
    ['bad amount before bad receipt', { name: '홍길동', point: 1, feeType: 'card' }, 'POINT_INVALID', '충전 금액은 5,000원 단위로 입력해 주세요.'],
    ['unknown receipt type', { name: '홍길동', point: 5000, feeType: 'card' }, 'RECEIPT_TYPE_INVALID', '영수증 종류를 다시 선택해 주세요.'],
    ['tax invoice without company', { name: '홍길동', point: 5000, feeType: 'fee', feeValue: { ...taxInvoice, company: ' ' } }, 'COMPANY_REQUIRED', '상호명을 입력해 주세요.'],
    ['tax invoice, 9-digit business number', { name: '홍길동', point: 5000, feeType: 'fee', feeValue: { ...taxInvoice, businessNumber: '123-45-6789' } }, 'BUSINESS_NUMBER_INVALID', '사업자등록번호 10자리를 정확히 입력해 주세요.'],
    ['tax invoice, letters in business number', { name: '홍길동', point: 5000, feeType: 'fee', feeValue: { ...taxInvoice, businessNumber: '12345abcde' } }, 'BUSINESS_NUMBER_INVALID', '사업자등록번호 10자리를 정확히 입력해 주세요.'],
    ['tax invoice without leader', { name: '홍길동', point: 5000, feeType: 'fee', feeValue: { ...taxInvoice, leader: '' } }, 'LEADER_REQUIRED', '대표자명을 입력해 주세요.'],
    ['tax invoice, short phone', { name: '홍길동', point: 5000, feeType: 'fee', feeValue: { ...taxInvoice, phone: '010-123-456' } }, 'RECEIPT_PHONE_INVALID', '휴대폰 번호를 정확히 입력해 주세요.'],
    ['tax invoice, email without a dot', { name: '홍길동', point: 5000, feeType: 'fee', feeValue: { ...taxInvoice, email: 'tax@example' } }, 'RECEIPT_EMAIL_INVALID', '이메일 주소를 정확히 입력해 주세요.'],
    ['tax invoice, email without @', { name: '홍길동', point: 5000, feeType: 'fee', feeValue: { ...taxInvoice, email: 'tax.example.com' } }, 'RECEIPT_EMAIL_INVALID', '이메일 주소를 정확히 입력해 주세요.'],
    ['tax invoice without details', { name: '홍길동', point: 5000, feeType: 'fee', feeValue: null }, 'COMPANY_REQUIRED', '상호명을 입력해 주세요.'],
    ['cash receipt without phone', { name: '홍길동', point: 5000, feeType: 'cash', feeValue: {} }, 'RECEIPT_PHONE_INVALID', '휴대폰 번호를 정확히 입력해 주세요.'],
    ['cash receipt, 12-digit phone', { name: '홍길동', point: 5000, feeType: 'cash', feeValue: { phone: '010-1234-56789' } }, 'RECEIPT_PHONE_INVALID', '휴대폰 번호를 정확히 입력해 주세요.'],
  ];
  for (const [title, body, code, message] of cases) {
    it(`${title} → ${code}`, async () => {
      const res = await member().http.post<ErrorBody>('/top-ups', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code, message });
    });
  }

  it('needs a member in the credential (401 for a service acting alone) and stores nothing for refused requests', async () => {
    const headers = { 'content-type': 'application/json', ...callerHeaders({ to: 'wallet', role: 'service' }) };
    const res = await fetch(`${suite.wallet.base}/top-ups`, { method: 'POST', headers, body: JSON.stringify({ name: '홍길동', point: 5000 }) });
    expect(res.status).toBe(401);
    expect(await suite.wallet.store.topUps.model.countDocuments({ status: 0, name: { $ne: '홍길동' } })).toBe(0);
  });
});

describe('who may call', () => {
  it('refuses the audit attack: a member files a 10,000,000-won top-up, a direct call claims admin, nothing is approved', async () => {
    const { userId, http } = await newMember();
    const filed = await http.post<{ id: number }>('/top-ups', { name: '공격자', point: 10_000_000 });
    expect(filed.status).toBe(201);
    for (const [name, headers] of Object.entries(forgedCallerHeaders('wallet'))) {
      const res = await fetch(`${suite.wallet.base}/admin/top-ups/${filed.body.id}/approve`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
      expect({ name, status: res.status }).toEqual({ name, status: 401 });
    }
    // A genuine credential for another service does not open the wallet either.
    const forOrder = await fetch(`${suite.wallet.base}/admin/top-ups/${filed.body.id}/approve`, { method: 'POST', headers: callerHeaders({ to: 'order', userId: 'admin-1', role: 'admin' }) });
    expect(forOrder.status).toBe(401);
    // A member's own credential reaches the route and is refused by the role check.
    expect((await http.post(`/admin/top-ups/${filed.body.id}/approve`)).status).toBe(403);
    expect(await balanceOf(suite.wallet.base, userId)).toBe(0);
    expect((await http.get<{ items: Array<{ status: number }> }>('/top-ups')).body.items[0]!.status).toBe(0);
  });
});

describe('POST /top-ups', () => {
  it('creates a pending request with a numeric id, an expiry and TopUpRequested; the receipt is optional', async () => {
    const { userId, http } = await newMember();
    const res = await http.post<TopUpView>('/top-ups', { name: ' 홍길동 ', point: 50_000, feeType: 'cash', feeValue: { phone: '01012345678' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ point: 50_000, pointDeci: 500_000, transferAmount: 50_000, transferDeci: 500_000, receiptType: 'cash', status: 0, responseAt: null });
    expect(Number.isInteger(res.body.id)).toBe(true);
    expect(Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt)).toBe(expirySeconds * 1000);

    const plain = await http.post<TopUpView>('/top-ups', { name: '홍길동', point: '10000' });
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ receiptType: 'none', pointDeci: 100_000 });
    expect(plain.body.id).toBeGreaterThan(res.body.id);

    await suite.wallet.flush();
    const event = await eventually(() => suite.received.of('TopUpRequested', (d) => d.topUpId === res.body.id), (e) => e.length === 1);
    expect(event[0]).toMatchObject({
      aggregateId: `topup-${res.body.id}`,
      data: { topUpId: res.body.id, userId, pointDeci: 500_000, transferDeci: 500_000, receiptType: 'cash', expiresAt: res.body.expiresAt },
    });
  });

  it('adds 10 % to the transfer for a tax invoice only while ENABLE_PAYMENT_FEE is on (replicated from catalog)', async () => {
    const { http } = await newMember();
    const body = { name: '세금계산서', point: 15_000, feeType: 'fee', feeValue: taxInvoice };
    await suite.publisher.publish(Topics.catalog, [suite.publisher.setting('ENABLE_PAYMENT_FEE', 'true')]);
    await eventually(() => suite.wallet.store.settings.get('ENABLE_PAYMENT_FEE'), (v) => v === 'true');
    const withFee = await http.post<TopUpView>('/top-ups', body);
    expect(withFee.body).toMatchObject({ point: 15_000, transferAmount: 16_500, transferDeci: 165_000, receiptType: 'fee' });
    const cash = await http.post<TopUpView>('/top-ups', { name: '현금', point: 15_000, feeType: 'cash', feeValue: { phone: '010-1234-5678' } });
    expect(cash.body.transferDeci).toBe(150_000);

    await suite.publisher.publish(Topics.catalog, [suite.publisher.setting('ENABLE_PAYMENT_FEE', 'false')]);
    await eventually(() => suite.wallet.store.settings.get('ENABLE_PAYMENT_FEE'), (v) => v === 'false');
    const noFee = await http.post<TopUpView>('/top-ups', { ...body, point: 20_000 });
    expect(noFee.body).toMatchObject({ transferAmount: 20_000, transferDeci: 200_000 });
  });

  it('answers concurrent identical submits with one request (201 once, 200 with the same one otherwise)', async () => {
    const { userId, http } = await newMember();
    const body = { name: '김입금', point: 30_000, feeType: 'fee', feeValue: taxInvoice };
    const answers = await Promise.all(Array.from({ length: 12 }, () => http.post<TopUpView>('/top-ups', body)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(11);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await suite.wallet.store.topUps.model.countDocuments({ userId })).toBe(1);

    // Anything different is a new request: the amount, the depositor, the receipt details.
    expect((await http.post('/top-ups', { ...body, point: 35_000 })).status).toBe(201);
    expect((await http.post('/top-ups', { ...body, name: '다른사람' })).status).toBe(201);
    expect((await http.post('/top-ups', { ...body, feeValue: { ...taxInvoice, phone: '010-9999-8888' } })).status).toBe(201);
    // Another member with the same form is not a duplicate either.
    expect((await member().http.post('/top-ups', body)).status).toBe(201);

    // Older than 60 s, or no longer pending: the same form makes a new request.
    const firstId = answers[0]!.body.id;
    await suite.wallet.store.topUps.model.updateOne({ _id: firstId }, { $set: { createdAt: new Date(Date.now() - 61_000) } });
    const late = await http.post<TopUpView>('/top-ups', body);
    expect(late.status).toBe(201);
    expect((await admin().post(`/admin/top-ups/${late.body.id}/reject`)).status).toBe(200);
    expect((await http.post('/top-ups', body)).status).toBe(201);

    await suite.wallet.flush();
    await new Promise((r) => setTimeout(r, 300));
    expect(suite.received.of('TopUpRequested', (d) => d.userId === userId)).toHaveLength(6);
  });
});

describe('GET /top-ups (member history)', () => {
  it('pages the member’s own requests newest first, and refuses other members’', async () => {
    const { userId, http } = await newMember();
    const ids: number[] = [];
    for (const point of [5000, 10_000, 15_000]) ids.push((await http.post<TopUpView>('/top-ups', { name: '홍길동', point })).body.id);
    const first = await http.get<Page<Record<string, unknown>>>(`/top-ups?userId=${userId}&page=1&pageSize=2`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, pageSize: 2, hasNext: true });
    expect(first.body.items.map((i) => i.id)).toEqual([ids[2], ids[1]]);
    expect(Object.keys(first.body.items[0]!).sort()).toEqual(['createdAt', 'endedBy', 'id', 'point', 'pointDeci', 'receiptType', 'rejectReason', 'responseAt', 'status', 'transferAmount', 'transferDeci'].sort());
    const second = await http.get<Page<{ id: number }>>(`/top-ups?userId=${userId}&page=2&pageSize=2`);
    expect(second.body).toMatchObject({ page: 2, hasNext: false });
    expect(second.body.items.map((i) => i.id)).toEqual([ids[0]]);
    expect((await http.get<Page<unknown>>('/top-ups')).body.items).toHaveLength(3); // userId defaults to the caller

    const other = await member().http.get<ErrorBody>(`/top-ups?userId=${userId}`);
    expect(other.status).toBe(403);
    expect((await admin().get<Page<unknown>>(`/top-ups?userId=${userId}`)).body.items).toHaveLength(3);
    expect((await http.get<ErrorBody>(`/top-ups?page=0`)).status).toBe(400);
    expect((await http.get<Page<unknown>>(`/top-ups?pageSize=1000`)).body.pageSize).toBe(100);
  });
});

describe('operators: list, approve, reject', () => {
  it('are for admins only (403 for members)', async () => {
    const { http } = member();
    for (const res of [await http.get<ErrorBody>('/admin/top-ups'), await http.post<ErrorBody>('/admin/top-ups/1/approve'), await http.get<ErrorBody>('/admin/accounts/x/ledger')]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 'ADMIN_ONLY', message: '관리자만 사용할 수 있습니다.' });
    }
  });

  it('lists with status and payment-type filters, newest first, with the member and receipt details', async () => {
    const { userId, http } = await newMember();
    const fee = (await http.post<TopUpView>('/top-ups', { name: '법인', point: 5000, feeType: 'fee', feeValue: taxInvoice })).body.id;
    const cash = (await http.post<TopUpView>('/top-ups', { name: '개인', point: 5000, feeType: 'cash', feeValue: { phone: '010-1111-2222' } })).body.id;
    const none = (await http.post<TopUpView>('/top-ups', { name: '없음', point: 5000, feeType: 'none' })).body.id;
    await admin().post(`/admin/top-ups/${none}/approve`);
    const mine = (items: Array<{ id: number }>) => items.map((i) => i.id).filter((id) => [fee, cash, none].includes(id));
    const list = async (query: string) => (await admin().get<Page<{ id: number }>>(`/admin/top-ups?pageSize=100&${query}`)).body.items;

    expect(mine(await list('status=0'))).toEqual([cash, fee]);
    expect(mine(await list('status=1'))).toEqual([none]);
    expect(mine(await list('paymentType=ALL'))).toEqual([none, cash, fee]);
    expect(mine(await list('paymentType=CASH_AND_FEE'))).toEqual([cash, fee]);
    expect(mine(await list('paymentType=FEE'))).toEqual([fee]);
    expect(mine(await list('paymentType=CASH&status=0'))).toEqual([cash]);
    expect(mine(await list('paymentType=NO_FEE'))).toEqual([none]);
    const [item] = (await admin().get<Page<Record<string, unknown>>>(`/admin/top-ups?paymentType=FEE&pageSize=1`)).body.items;
    expect(item).toMatchObject({ id: fee, userId, name: '법인', feeValue: taxInvoice, paymentType: 1, status: 0 });
    // An operator looking at one member sees only that member's requests.
    expect((await list(`userId=${encodeURIComponent(userId)}`)).map((i) => i.id)).toEqual([none, cash, fee]);

    expect((await admin().get<ErrorBody>('/admin/top-ups?status=7')).body.code).toBe('STATUS_INVALID');
    expect((await admin().get<ErrorBody>('/admin/top-ups?paymentType=CARD')).body.code).toBe('PAYMENT_TYPE_INVALID');
  });

  it('approves once: status 1, points credited with a ledger entry, TopUpApproved and PointCredited; then 409', async () => {
    const { userId, http } = await newMember();
    const id = (await http.post<TopUpView>('/top-ups', { name: '홍길동', point: 25_000, feeType: 'none' })).body.id;
    const answers = await Promise.all(Array.from({ length: 5 }, () => admin().post<TopUpView & ErrorBody>(`/admin/top-ups/${id}/approve`)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]!.body).toMatchObject({ id, status: 1, pointDeci: 250_000 });
    expect(ok[0]!.body.responseAt).not.toBeNull();
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ code: 'TOPUP_NOT_PENDING', message: '이미 처리된 충전 요청입니다.' });
    }
    expect(await balanceOf(suite.wallet.base, userId)).toBe(250_000);
    expect((await admin().post<ErrorBody>(`/admin/top-ups/${id}/reject`)).status).toBe(409);

    const ledger = await admin().get<Page<Record<string, unknown>>>(`/admin/accounts/${userId}/ledger`);
    expect(ledger.body.items).toEqual([
      { seq: 1, createdAt: expect.any(String), deltaDeci: 250_000, balanceAfterDeci: 250_000, kind: 'credit', source: 'topup', referenceId: `topup-${id}` },
    ]);
    await suite.wallet.flush();
    await eventually(() => suite.received.of('PointCredited', (d) => d.userId === userId), (e) => e.length === 1);
    expect(suite.received.of('TopUpApproved', (d) => d.topUpId === id)).toHaveLength(1);
    expect(suite.received.of('PointCredited', (d) => d.userId === userId)[0]).toMatchObject({
      aggregateId: `account-${userId}`,
      data: { source: 'topup', referenceId: `topup-${id}`, amountDeci: 250_000, balanceAfterDeci: 250_000 },
    });
    expect((await admin().post<ErrorBody>('/admin/top-ups/999999/approve')).body).toEqual({ code: 'TOPUP_NOT_FOUND', message: '충전 요청을 찾을 수 없습니다.' });
    expect((await admin().post<ErrorBody>('/admin/top-ups/abc/approve')).status).toBe(404);
  });

  it('rejects: status 2 and TopUpRejected, no money; approving afterwards is 409', async () => {
    const { userId, http } = await newMember();
    const id = (await http.post<TopUpView>('/top-ups', { name: '홍길동', point: 5000 })).body.id;
    const res = await admin().post<TopUpView>(`/admin/top-ups/${id}/reject`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 2 });
    expect(res.body.responseAt).not.toBeNull();
    expect((await admin().post<ErrorBody>(`/admin/top-ups/${id}/approve`)).body.code).toBe('TOPUP_NOT_PENDING');
    expect(await balanceOf(suite.wallet.base, userId)).toBe(0);
    await suite.wallet.flush();
    await eventually(() => suite.received.of('TopUpRejected', (d) => d.topUpId === id), (e) => e.length === 1);
  });
});

describe('expiry (scheduler TopUpExpiryDue)', () => {
  it('fails a pending request once with TopUpExpired, and leaves decided requests alone', async () => {
    const { userId, http } = await newMember();
    const pending = (await http.post<TopUpView>('/top-ups', { name: '만료', point: 5000 })).body.id;
    const approved = (await http.post<TopUpView>('/top-ups', { name: '승인', point: 5000 })).body.id;
    await admin().post(`/admin/top-ups/${approved}/approve`);
    const due = suite.publisher.expiryDue(pending, userId);
    await suite.publisher.publish(Topics.scheduler, [due, due, suite.publisher.expiryDue(pending, userId), suite.publisher.expiryDue(approved, userId), suite.publisher.expiryDue(987_654, userId)]);

    const history = () => http.get<Page<TopUpView>>('/top-ups');
    const items = (await eventually(history, (r) => r.body.items.find((i) => i.id === pending)?.status === 2)).body.items;
    expect(items.find((i) => i.id === pending)!.responseAt).not.toBeNull();
    expect(items.find((i) => i.id === approved)!.status).toBe(1);
    expect((await admin().post<ErrorBody>(`/admin/top-ups/${pending}/approve`)).status).toBe(409);

    await suite.wallet.flush();
    await eventually(() => suite.received.of('TopUpExpired', (d) => d.userId === userId), (e) => e.length >= 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(suite.received.of('TopUpExpired', (d) => d.userId === userId)).toEqual([expect.objectContaining({ aggregateId: `topup-${pending}`, data: { topUpId: pending, userId } })]);
    expect(await balanceOf(suite.wallet.base, userId)).toBe(50_000);
    expect((await checkLedger(suite.wallet.store.connection)).violations).toEqual([]);
  });
});
