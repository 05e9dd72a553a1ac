import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@smm/testkit';
import { api, asAdmin, stack, uniqueId } from './support/client.ts';
import { type Member, apiKeyOf, listedToResellers, member, order, product } from './support/money.ts';

/**
 * The back office of issue 41 through the real devstack: profit (revenue from order, provider cost
 * from fulfillment, combined by the BFF) checked against an independent computation over the
 * ledger, the provider's own orders and the forward records; the streamed CSV exports parsed back;
 * staff against admin; the dashboard's 처리할 일. This panel is its own upstream provider (its
 * /api/v2 with a reseller's key), so the provider's charge is a real order's price on the other side.
 */
type ProfitRow = { key: string; label: string; orders: number; chargedDeci: number; refundedDeci: number; revenueDeci: number; forwarded: number; costed: number; costDeci: number; profitDeci: number };
type Profit = { by: string; from: string; to: string; rows: ProfitRow[]; totals: Omit<ProfitRow, 'key' | 'label'> };
type Forwarding = { state: string; providerOrderId: string | null };
type SearchPage = { items: Array<{ id: number; status: number; forwarding: Forwarding | null }> };
type Attention = { items: Array<{ key: string; label: string; count: number | null; detail: string | null; href: string }> };

const mongo = new MongoClient(stack().mongoUrl);
const kstDay = (date: Date) => new Date(date.getTime() + 9 * 3_600_000).toISOString().slice(0, 10);
const kstTime = (iso: string | Date) => new Date(new Date(iso).getTime() + 9 * 3_600_000).toISOString().replace('T', ' ').slice(0, 19);

let admin: string;
let staff: string;
let buyer: Member;
let providerId: number;
let providerName: string;
let sold: { id: number; text: string };
const placed: number[] = [];

/** RFC 4180 CSV → rows (quotes, doubled quotes, CRLF), as a spreadsheet reads it. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endCell();
    else if (c === '\r' && text[i + 1] === '\n') {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    endCell();
    rows.push(row);
  }
  return rows;
}

/** An export as bytes: status, headers, and the rows parsed back (BOM checked and removed). */
async function exported(path: string, token: string) {
  const res = await fetch(`${stack().bffUrl}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) return { status: res.status, bom: false, rows: [] as string[][], body: JSON.parse(bytes.toString('utf8')) as { code: string; message: string }, headers: res.headers };
  return { status: res.status, bom: bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf, rows: parseCsv(bytes.subarray(3).toString('utf8')), body: null, headers: res.headers };
}

const search = (q: string) => api<SearchPage>('GET', `/admin/orders/search?${q}`, { token: admin });
const profit = (q: string, token = admin) => api<Profit>('GET', `/admin/reports/profit?${q}`, { token });

/**
 * Revenue and cost computed without the report's code: the wallet's ledger (each debit of a
 * payment taken in the range, less every refund credited against it) and the forward records'
 * reported charges at the providers' rates, read straight from the databases.
 */
async function independent(from: Date, to: Date, filter: { userId?: string; orderIds?: number[]; providerId?: number } = {}) {
  const ledger = mongo.db('wallet').collection<{ _id: string; userId: string; deltaDeci: number; source: string; createdAt: Date; paymentReference?: string }>('ledger_entries');
  const debitFilter: Record<string, unknown> = { source: 'order', createdAt: { $gte: from, $lt: to } };
  if (filter.userId) debitFilter.userId = filter.userId;
  if (filter.orderIds) debitFilter._id = { $in: filter.orderIds.map((id) => `order-${id}`) };
  const debits = await ledger.find(debitFilter).toArray();
  const refunds = await ledger.find({ source: 'refund', paymentReference: { $in: debits.map((d) => d._id) } }).toArray();
  const revenueDeci = debits.reduce((s, d) => s - d.deltaDeci, 0) - refunds.reduce((s, r) => s + r.deltaDeci, 0);
  const providers = new Map((await mongo.db('fulfillment').collection<{ _id: number; wonDeciPerUnit: number }>('providers').find().toArray()).map((p) => [p._id, p.wonDeciPerUnit]));
  const forwardFilter: Record<string, unknown> = { createdAt: { $gte: from, $lt: to }, state: { $ne: 'failed' } };
  if (filter.userId) forwardFilter.userId = filter.userId;
  if (filter.orderIds) forwardFilter._id = { $in: filter.orderIds };
  if (filter.providerId) forwardFilter.providerId = filter.providerId;
  const forwards = await mongo.db('fulfillment').collection<{ providerId: number | null; providerCharge?: string | null }>('forwards').find(forwardFilter).toArray();
  // The charge is decimal text in the provider's currency: × deci-won per unit, rounded half up.
  const costDeci = forwards.reduce((s, f) => (f.providerCharge == null ? s : s + Math.round(Number(f.providerCharge) * (providers.get(f.providerId!) ?? 0))), 0);
  return { revenueDeci, costDeci, profitDeci: revenueDeci - costDeci };
}

beforeAll(async () => {
  admin = await asAdmin();
  const reseller = await member(50_000);
  const base = await product({ min: 10, max: 10_000, point: 2 }, reseller);
  const key = await apiKeyOf(reseller);
  await listedToResellers(key, base.id);
  providerName = `손익 공급처 ${uniqueId('p').slice(-5)}`;
  const created = await api<{ id: number }>('POST', '/admin/fulfillment/providers', { token: admin, body: { name: providerName, url: `${stack().bffUrl}/api/v2`, key, currency: 'KRW', wonDeciPerUnit: 10, idempotentAdd: true } });
  expect(created.status).toBe(201);
  providerId = created.body.id;
  expect((await api('POST', `/admin/fulfillment/providers/${providerId}/import`, { token: admin })).status).toBe(200);
  sold = await product({ min: 10, max: 10_000, point: 3 });
  const mapped = await api('PUT', `/admin/fulfillment/mappings/${sold.id}`, { token: admin, body: { mode: 'provider', providerId, providerServiceId: String(base.id), rule: { kind: 'markup', percent: 10 } } });
  expect(mapped.status, JSON.stringify(mapped.body)).toBe(200);
  buyer = await member(50_000);
  for (let i = 0; i < 3; i++) {
    const res = await eventually(() => order(buyer, { serviceId: sold.id, link: `https://www.instagram.com/p/profit-${uniqueId('l')}`, amount: 100 }), (r) => r.status === 201, 20_000);
    placed.push(Number((res.body.order as { id: number }).id));
  }
  const forwarded = await eventually(() => search(`loginId=${buyer.id}`), (r) => r.body.items.filter((i) => i.forwarding?.state === 'accepted').length === 3, 60_000);
  // On the provider's side (this panel): one order completed, one partly done (40 left), one still pending.
  const theirs = placed.map((id) => forwarded.body.items.find((i) => i.id === id)!.forwarding!.providerOrderId!);
  const change = (id: string, body: Record<string, unknown>) => api('POST', '/admin/orders/bulk', { token: admin, body: { ids: [Number(id)], ...body } });
  expect((await change(theirs[0]!, { status: 2 })).status).toBe(200);
  expect((await change(theirs[1]!, { status: 3, remains: 40 })).status).toBe(200);
  // The status sync reads them back (with each order's charge) and moves ours: the partial one refunds 40 units.
  await eventually(
    async () => {
      await api('POST', '/admin/fulfillment/sync/statuses', { token: admin });
      return search(`loginId=${buyer.id}`);
    },
    (r) => r.body.items.filter((i) => i.status === 2 || i.status === 3).length === 2,
    60_000,
  );
  const staffMember = await member();
  expect((await api('PUT', `/admin/members/${staffMember.userId}/role`, { token: admin, body: { role: 'staff' } })).status).toBe(200);
  staff = (await api<{ accessToken: string }>('POST', '/auth/login', { body: { id: staffMember.id, password: staffMember.password } })).body.accessToken;
}, 180_000);

afterAll(() => mongo.close());

describe('profit', () => {
  it('by provider, member and product: revenue, cost and profit match the ledger and the provider’s own orders', async () => {
    const today = kstDay(new Date());
    const from = new Date(`${today}T00:00:00+09:00`);
    const to = new Date(from.getTime() + 86_400_000);
    const mine = await independent(from, to, { orderIds: placed });
    // 3 × 100 units at 2.2원 = 660원 charged; 40 units refunded = 88원.
    expect(mine.revenueDeci).toBe(6_600 - 880);
    // What the provider charged: its own orders' prices (2원 a unit), read from its order records.
    const forwards = await mongo.db('fulfillment').collection<{ _id: number; providerOrderId: string }>('forwards').find({ _id: { $in: placed } }).toArray();
    const theirOrders = await mongo.db('order').collection<{ _id: number; chargeDeci: number; status: number }>('orders').find({ _id: { $in: forwards.map((f) => Number(f.providerOrderId)) } }).toArray();
    const theirCharged = theirOrders.filter((o) => o.status === 2 || o.status === 3).reduce((s, o) => s + o.chargeDeci, 0);
    expect(theirCharged).toBe(4_000);
    expect(mine.costDeci).toBe(theirCharged);

    const byProvider = await profit(`by=provider&from=${today}&to=${today}`);
    expect(byProvider.status).toBe(200);
    expect(byProvider.body.rows.find((r) => r.key === String(providerId))).toMatchObject({
      label: providerName,
      orders: 3,
      chargedDeci: 6_600,
      refundedDeci: 880,
      revenueDeci: mine.revenueDeci,
      forwarded: 3,
      costed: 2,
      costDeci: mine.costDeci,
      profitDeci: mine.profitDeci,
    });
    const byMember = await profit(`by=member&from=${today}&to=${today}`);
    expect(byMember.body.rows.find((r) => r.label === buyer.id)).toMatchObject({ key: buyer.userId, orders: 3, revenueDeci: mine.revenueDeci, costDeci: mine.costDeci, profitDeci: mine.profitDeci });
    const byProduct = await profit(`by=product&from=${today}&to=${today}`);
    expect(byProduct.body.rows.find((r) => r.key === String(sold.id))).toMatchObject({ label: sold.text, orders: 3, revenueDeci: mine.revenueDeci, costDeci: mine.costDeci });
  });

  it('by day, week and month: the same totals, equal to the whole ledger and every forward of the range', async () => {
    const today = kstDay(new Date());
    const from = new Date(`${today}T00:00:00+09:00`);
    const to = new Date(from.getTime() + 86_400_000);
    // Other files' orders may still be syncing: the report must equal a computation taken around it.
    await eventually(
      async () => {
        const before = await independent(from, to);
        const report = await profit(`by=day&from=${today}&to=${today}`);
        const after = await independent(from, to);
        return { before, after, totals: report.body.totals, rows: report.body.rows };
      },
      ({ before, after, totals, rows }) =>
        JSON.stringify(before) === JSON.stringify(after) && totals.revenueDeci === before.revenueDeci && totals.costDeci === before.costDeci && totals.profitDeci === before.profitDeci && rows.length === 1 && rows[0]!.key === today,
      30_000,
    );
    const day = (await profit(`by=day&from=${today}&to=${today}`)).body;
    for (const by of ['week', 'month', 'product', 'provider', 'member']) {
      const other = (await profit(`by=${by}&from=${today}&to=${today}`)).body;
      expect(other.totals.revenueDeci, by).toBe(day.totals.revenueDeci);
      expect(other.totals.costDeci, by).toBe(day.totals.costDeci);
    }
    // A month of days: one row per KST day, empty days as zeros.
    const month = await profit('by=day&from=2026-01-01&to=2026-01-31');
    expect(month.body.rows.map((r) => r.key)).toHaveLength(31);
    expect(month.body.rows[0]).toMatchObject({ key: '2026-01-01', revenueDeci: 0 });
  });

  it('is the admin’s: staff get 403; a wrong grouping or date is a Korean 400 that changes nothing', async () => {
    expect((await profit('by=day', staff)).status).toBe(403);
    expect((await profit('by=day', buyer.token)).status).toBe(403);
    const bad = await profit('by=year');
    expect([bad.status, bad.body]).toEqual([400, expect.objectContaining({ message: expect.stringContaining('집계 기준') })]);
    for (const q of ['from=2026-02-30', 'from=2026-12-02&to=2026-12-01', 'to=12/01/2026', 'from=2020-01-01&to=2026-01-01']) {
      const res = await profit(`by=day&${q}`);
      expect([q, res.status]).toEqual([q, 400]);
      expect((res.body as unknown as { message: string }).message).toMatch(/기간/);
    }
  });
});

describe('member totals', () => {
  it('shows spent, refunded and orders on the member page and ranks members by them, for staff too', async () => {
    const totals = await api<{ orders: number; chargedDeci: number; refundedDeci: number }>('GET', `/admin/members/${buyer.userId}/totals`, { token: staff });
    expect(totals.body).toMatchObject({ orders: 3, chargedDeci: 6_600, refundedDeci: 880 });
    const ranked = await api<{ items: Array<{ userId: string; loginId: string | null; chargedDeci: number; refundedDeci: number; orders: number }> }>('GET', '/admin/member-rankings?sort=spent&pageSize=100', { token: staff });
    expect(ranked.status).toBe(200);
    const spent = ranked.body.items.map((i) => i.chargedDeci - i.refundedDeci);
    expect(spent).toEqual([...spent].sort((a, b) => b - a));
    const byOrders = (await api<{ items: Array<{ orders: number }> }>('GET', '/admin/member-rankings?sort=orders&pageSize=100', { token: admin })).body.items.map((i) => i.orders);
    expect(byOrders).toEqual([...byOrders].sort((a, b) => b - a));
    expect((await api('GET', '/admin/member-rankings?sort=name', { token: admin })).status).toBe(400);
    expect((await api('GET', '/admin/member-rankings', { token: buyer.token })).status).toBe(403);
  });
});

describe('exports', () => {
  it('orders: UTF-8 with BOM, Korean headers and names intact, KST times, money as won numbers', async () => {
    const today = kstDay(new Date());
    const file = await exported(`/admin/exports/orders.csv?from=${today}&to=${today}&loginId=${buyer.id}`, staff);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(decodeURIComponent(file.headers.get('content-disposition')!)).toContain(`주문_${today}_${today}.csv`);
    expect(file.bom).toBe(true);
    const [header, ...rows] = file.rows;
    expect(header!.slice(0, 4)).toEqual(['주문 번호', '주문 시각', '결제 시각', '아이디']);
    expect(rows.map((r) => Number(r[0]))).toEqual(placed);
    const stored = await mongo.db('order').collection<{ _id: number; createdAt: Date }>('orders').find({ _id: { $in: placed } }).sort({ _id: 1 }).toArray();
    rows.forEach((r, i) => {
      expect(r[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(r[1]).toBe(kstTime(stored[i]!.createdAt));
      expect(r[3]).toBe(buyer.id);
      expect(r[5]).toBe(sold.text); // "e2e 상품 …": Korean read back intact
      expect(r[8]).toBe('220');
    });
    expect(rows.map((r) => r[10]).sort()).toEqual(['부분 완료', '완료', '주문 접수'].sort());
    expect(rows.find((r) => r[10] === '부분 완료')![9]).toBe('88');
  });

  it('deposits, ledger and top-ups: formula-looking text is neutralised; staff get top-ups without receipt details', async () => {
    const name = `=HYPERLINK("http://x") ${uniqueId('d')}`;
    const entered = await api('POST', '/admin/deposits', { token: admin, body: { depositorName: name, amount: 12_345 } });
    expect(entered.status, JSON.stringify(entered.body)).toBe(201);
    const today = kstDay(new Date());
    const deposits = await exported(`/admin/exports/deposits.csv?from=${today}&to=${today}`, staff);
    expect(deposits.status).toBe(200);
    const row = deposits.rows.find((r) => r[3]?.includes(name));
    expect(row![3]).toBe(`'${name}`);
    expect(row![4]).toBe('12345');
    expect(row![7]).toBe('미확인');

    const ledger = await exported(`/admin/exports/ledger.csv?loginId=${buyer.id}`, staff);
    expect(ledger.rows[0]).toEqual(['시각', '아이디', '순번', '구분', '원인', '금액(원)', '잔액(원)', '참조 번호']);
    const entries = ledger.rows.slice(1);
    expect(entries.map((r) => r[4])).toEqual(['충전', '주문', '주문', '주문', '환불']);
    expect(entries.map((r) => Number(r[5]))).toEqual([50_000, -220, -220, -220, 88]);
    expect(Number(entries.at(-1)![6])).toBe(50_000 - 660 + 88);

    const topUps = async (token: string) => (await exported(`/admin/top-ups.csv?loginId=${buyer.id}`, token)).rows;
    const [head, first] = await topUps(admin);
    expect(head![1]).toBe('신청 시각');
    expect(first![1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(first![2]).toBe(buyer.id);
    expect((await topUps(staff))[1]![7]).toBe('');
  });

  it('members and the audit log are the admin’s: staff get 403; the files parse back', async () => {
    const members = await exported('/admin/exports/members.csv', admin);
    expect(members.status).toBe(200);
    expect(members.rows[0]!.slice(0, 5)).toEqual(['회원 번호', '아이디', '이메일', '전화번호', '권한']);
    const row = members.rows.find((r) => r[1] === buyer.id)!;
    expect(row[4]).toBe('회원');
    expect(row.slice(10)).toEqual(['3', '660', '88', '572']);
    const audit = await exported(`/admin/exports/audit.csv?from=${kstDay(new Date())}`, admin);
    expect(audit.status).toBe(200);
    expect(audit.rows.some((r) => r[4] === 'wallet.deposit.enter' && r[1] === 'admin')).toBe(true);
    for (const kind of ['members', 'audit']) {
      const refused = await exported(`/admin/exports/${kind}.csv`, staff);
      expect([kind, refused.status, refused.body?.code]).toEqual([kind, 403, 'ADMIN_ONLY']);
    }
    expect((await exported('/admin/exports/orders.csv', buyer.token)).status).toBe(403);
    const bad = await exported('/admin/exports/orders.csv?from=2026-13-01', admin);
    expect([bad.status, bad.body?.message]).toEqual([400, expect.stringContaining('기간')]);
    expect((await exported('/admin/exports/secrets.csv', admin)).status).toBe(404);
  });
});

describe('the dashboard’s 처리할 일', () => {
  it('counts what needs a person and links to it; provider problems are the admin’s', async () => {
    // A provider whose balance is under 10,000원 (its threshold left at 0, so the default applies)
    // and one that cannot be reached.
    const poor = await member(5_000);
    const low = await api<{ id: number }>('POST', '/admin/fulfillment/providers', { token: admin, body: { name: `잔액 부족 ${uniqueId('p').slice(-5)}`, url: `${stack().bffUrl}/api/v2`, key: await apiKeyOf(poor), currency: 'KRW', wonDeciPerUnit: 10 } });
    const dead = await api<{ id: number }>('POST', '/admin/fulfillment/providers', { token: admin, body: { name: `응답 없음 ${uniqueId('p').slice(-5)}`, url: 'http://127.0.0.1:9/api/v2', key: 'k'.repeat(32), currency: 'KRW', wonDeciPerUnit: 10 } });
    expect([low.status, dead.status]).toEqual([201, 201]);
    await api('POST', '/admin/fulfillment/sync/balances', { token: admin });
    const attention = await eventually(
      () => api<Attention>('GET', '/admin/attention', { token: admin }),
      (r) => (r.body.items.find((i) => i.key === 'providers-low')?.detail ?? '').includes('잔액 부족') && (r.body.items.find((i) => i.key === 'providers-failing')?.detail ?? '').includes('응답 없음'),
      30_000,
    );
    const keys = attention.body.items.map((i) => i.key);
    expect(keys).toEqual(expect.arrayContaining(['forwards-queued', 'forwards-retrying', 'deposits-unmatched', 'deposits-ambiguous', 'reconcile', 'providers-failing', 'providers-low']));
    expect(attention.body.items.find((i) => i.key === 'deposits-unmatched')).toMatchObject({ count: expect.any(Number), href: '/admin/deposits' });
    expect(attention.body.items.find((i) => i.key === 'deposits-unmatched')!.count).toBeGreaterThanOrEqual(1);
    for (const item of attention.body.items) expect(item.label).toMatch(/[가-힣]/);
    const forStaff = await api<Attention>('GET', '/admin/attention', { token: staff });
    expect(forStaff.body.items.map((i) => i.key)).not.toContain('providers-low');
    expect(forStaff.body.items.map((i) => i.key)).toContain('deposits-unmatched');
    expect((await api('GET', '/admin/attention', { token: buyer.token })).status).toBe(403);
    for (const id of [low.body.id, dead.body.id]) await api('DELETE', `/admin/fulfillment/providers/${id}`, { token: admin });
  });
});
