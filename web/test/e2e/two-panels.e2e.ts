import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, api, asAdmin, balanceDeci, eventually, fund, newMember, uniqueId } from './support/api.ts';
import { type Theme, type Viewport, type Visit, desktop, disconnect, heading, open, shot } from './support/browser.ts';
import { type Devstack, startDevstack } from './support/devstack.ts';

/**
 * Issue 11 end to end, in the browser: panel A (this run's devstack) resells panel B (a second copy
 * of the product, its own data directory and ports) through B's real /api/v2, with B's operator's
 * API key. A's member orders on A's order page; the order reaches B; B's operator moves it (in
 * progress, partial, canceled, completed) through B's admin API; A's status sync brings it back and
 * the member's open order-history page shows the same status and the refund in the balance.
 * Screenshots: artifacts/two-panels-history-*.png.
 */
const laptop: Viewport = { width: 1024, height: 768 };

let b: Devstack | undefined;
let bUrl: string;
let tokenB: string;
let member: Member;
let productId: number;
let productText: string;
let unitDeci: number;
let amount: number;
let keyB: string;
/** A's reseller account on B, whose key A's provider entry uses. */
let resellerB: string;
let remoteService: string;

/** Calls panel B's public API as its operator. */
async function apiB<T = Record<string, unknown>>(method: string, path: string, body?: unknown, token = tokenB): Promise<{ status: number; body: T }> {
  const res = await fetch(`${bUrl}/api${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text === '' ? null : JSON.parse(text)) as T };
}

const wonText = (deci: number) => `${Math.trunc(deci / 10).toLocaleString('ko-KR')}원`;

beforeAll(async () => {
  b = await startDevstack({ LOG_LEVEL: 'warn' }, { prefix: 'web-e2e-panel-b-', timeoutMs: 240_000 });
  bUrl = b.find(/bff: ready at (http:\/\/\S+)/, 'panel B address');
  const login = await apiB<{ accessToken: string }>('POST', '/auth/login', { id: 'admin', password: b.find(/admin account: id admin, password (\S+)/, 'panel B admin password') }, '');
  if (login.status !== 200) throw new Error(`panel B login answered ${login.status}`);
  tokenB = login.body.accessToken;
  // A's reseller account on B pays for A's orders: it tops itself up and B's operator approves it
  // (an operator may not approve their own request).
  const resellerId = uniqueId('pa');
  const registered = await apiB('POST', '/auth/register', { id: resellerId, password: 'pass-1234', email: `${resellerId}@example.com`, registerWhere: '기타' }, '');
  if (registered.status !== 201) throw new Error(`panel B registration answered ${registered.status} ${JSON.stringify(registered.body)}`);
  const reseller = (await apiB<{ accessToken: string }>('POST', '/auth/login', { id: resellerId, password: 'pass-1234' }, '')).body.accessToken;
  resellerB = reseller;
  const topUp = await eventually(() => apiB<{ id: number }>('POST', '/service/point', { name: '패널A', point: 1_000_000, feeType: 'none', feeValue: null }, reseller), (r) => r.status === 201, 30_000, 'panel B top-up request');
  const approved = await apiB('POST', `/admin/top-ups/${topUp.body.id}/approve`);
  if (approved.status !== 200) throw new Error(`panel B approval answered ${approved.status} ${JSON.stringify(approved.body)}`);
  await eventually(() => apiB<{ pointDeci: number }>('GET', '/auth/profile', undefined, reseller).then((r) => r.body.pointDeci), (p) => p >= 10_000_000, 30_000, 'panel B balance');
  keyB = (await apiB<{ apiKey: string }>('POST', '/auth/api-key', undefined, reseller)).body.apiKey;

  // A's operator registers B (a copy of this product: it honours Idempotency-Key), imports its
  // services and maps a product of A's own to B's first service at cost + 10 %.
  const admin = await asAdmin();
  const provider = await api<{ id: number }>('POST', '/admin/fulfillment/providers', { token: admin, body: { name: `패널 B ${uniqueId('b').slice(-4)}`, url: `${bUrl}/api/v2`, key: keyB, currency: 'KRW', wonDeciPerUnit: 10, idempotentAdd: true } });
  if (provider.status !== 201) throw new Error(`provider answered ${provider.status} ${JSON.stringify(provider.body)}`);
  await api('POST', `/admin/fulfillment/providers/${provider.body.id}/import`, { token: admin });
  const remote = (await api<Array<{ service: string; min: number; max: number }>>('GET', `/admin/fulfillment/providers/${provider.body.id}/services`, { token: admin })).body[0]!;
  remoteService = remote.service;
  productText = `패널B 대행 상품 ${uniqueId('s').slice(-5)}`;
  const made = await api<{ id: number }>('POST', '/admin/services', { token: admin, body: { text: productText, categoryId: 1, min: 10, max: 100_000, point: '5' } });
  if (made.status !== 201) throw new Error(`product answered ${made.status} ${JSON.stringify(made.body)}`);
  productId = made.body.id;
  const mapped = await api<{ unitPriceDeci: number }>('PUT', `/admin/fulfillment/mappings/${productId}`, { token: admin, body: { mode: 'provider', providerId: provider.body.id, providerServiceId: remote.service, rule: { kind: 'markup', percent: 10 } } });
  if (mapped.status !== 200) throw new Error(`mapping answered ${mapped.status} ${JSON.stringify(mapped.body)}`);
  unitDeci = mapped.body.unitPriceDeci;
  // A multiple of 10, so every amount in won is whole.
  amount = Math.min(Math.max(Math.ceil(remote.min / 10) * 10, 100), Math.floor(remote.max / 10) * 10);
  member = await newMember();
  await fund(member, 50_000);
}, 420_000);

afterAll(async () => {
  await disconnect();
  await b?.stop();
}, 120_000);

/** The member's order on A's order page, as a member places it; answers A's order id. */
async function orderInBrowser(visit: Visit, link: string): Promise<number> {
  const { page } = visit;
  await page.goto('/order');
  await heading(page, '주문하기');
  const product = page.getByLabel('상품 선택');
  await expect.poll(() => product.locator('option').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining(productText)]));
  await product.selectOption({ label: (await product.locator('option', { hasText: productText }).first().textContent())! });
  await page.getByLabel('주문 링크').fill(link);
  await page.getByLabel('수량', { exact: true }).fill(String(amount));
  await expect.poll(() => page.getByTestId('total-price').textContent()).toBe(wonText(unitDeci * amount));
  // The screen reads the catalogue, the order service its replica of it: for a moment after the
  // mapping repriced the product they differ, and the order is refused (가격이 변경되었습니다 …) rather
  // than charged another price than shown. The member checks the price and orders again.
  for (let attempt = 1; ; attempt++) {
    await page.getByRole('form', { name: '주문서' }).getByRole('button', { name: '주문하기' }).click();
    // The losing wait times out later: its rejection is expected and dropped.
    const outcome = await Promise.race([
      page.waitForURL('**/order-history').then(() => 'placed' as const, () => 'neither' as const),
      page.getByText('가격이 변경되었습니다').first().waitFor().then(() => 'repriced' as const, () => 'neither' as const),
    ]);
    if (outcome === 'neither') throw new Error('the order was neither placed nor refused as repriced');
    if (outcome === 'placed') break;
    if (attempt === 5) throw new Error('the order was refused as repriced five times');
    await page.getByText('가격이 변경되었습니다').first().waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('total-price').textContent()).toBe(wonText(unitDeci * amount));
  }
  await page.waitForURL('**/order-history');
  await heading(page, '주문 내역');
  const row = page.getByRole('row').filter({ hasText: link });
  await row.first().waitFor();
  return Number((await row.first().locator('td').first().textContent())!.replace(/\D/g, ''));
}

type Forward = { state: string; providerOrderId: string | null };
const forwardOf = async (orderId: number) => (await api<Forward>('GET', `/admin/fulfillment/forwards/${orderId}`, { token: await asAdmin() })).body;
const syncA = async () => api('POST', '/admin/fulfillment/sync/statuses', { token: await asAdmin() });
/** B's operator moves B's order (B's admin API, as B's console does). */
async function moveOnB(providerOrderId: string, body: Record<string, unknown>): Promise<void> {
  const moved = await apiB('PATCH', `/admin/orders/${providerOrderId}`, body);
  expect(moved.status).toBe(200);
  await syncA();
}

describe('panel B as the provider A reconciles with', () => {
  it('answers a repeated add with the same Idempotency-Key with the same order, also when the copies arrive at once', async () => {
    const link = `https://www.instagram.com/p/two-panels-key-${uniqueId('k')}`;
    const add = (headers: Record<string, string>, extra: Record<string, string> = {}) =>
      fetch(`${bUrl}/api/v2`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams({ key: keyB, action: 'add', service: remoteService, link, quantity: String(amount), ...extra }) }).then(
        async (r) => ({ status: r.status, body: (await r.json()) as { order?: number; error?: string } }),
      );
    const reference = `fwd-e2e-${uniqueId('r')}`;
    const burst = await Promise.all([add({ 'idempotency-key': reference }), add({ 'idempotency-key': reference }), add({ 'idempotency-key': reference })]);
    expect(burst.map((r) => r.status)).toEqual([200, 200, 200]);
    const id = burst[0]!.body.order;
    expect(typeof id).toBe('number');
    expect(burst.map((r) => r.body.order)).toEqual([id, id, id]);
    expect((await add({}, { idempotency_key: reference })).body.order).toBe(id);
    // B holds one order for the link.
    const history = await apiB<{ items: Array<{ id: number; link: string }> }>('GET', '/service/order-history?pageSize=50', undefined, resellerB);
    expect(history.body.items.filter((o) => o.link === link).map((o) => o.id)).toEqual([id]);
  });
});

describe('an order on panel A carried by panel B', () => {
  let visit: Visit;
  const cells = async (link: string) => visit.page.getByRole('row').filter({ hasText: link }).first().locator('td').allTextContents();
  const navBalance = () => visit.page.getByTestId('nav-balance').first();

  beforeAll(async () => {
    visit = await open({ token: member.token });
  });
  afterAll(() => visit?.context.close());

  it('reaches B, and A’s member sees B’s in progress and partial — with the refund of the remains — on the open history page', async () => {
    const link = `https://www.instagram.com/p/two-panels-${uniqueId('p')}`;
    const before = await balanceDeci(member.token);
    const orderId = await orderInBrowser(visit, link);
    const f = await eventually(() => forwardOf(orderId), (x) => x?.state === 'accepted', 60_000, 'forwarded to B');
    // B's operator sees it on B, with the member's link and amount.
    expect((await apiB<{ link: string; amount: number }>('GET', `/admin/orders/${f.providerOrderId}`)).body).toMatchObject({ link, amount });
    await expect.poll(() => navBalance().textContent()).toContain(wonText(before - unitDeci * amount));
    expect((await cells(link))[6]).toBe('주문 접수');

    await moveOnB(f.providerOrderId!, { status: 1, startCount: 500 });
    // No reload: the order history follows over the live channel.
    await expect.poll(async () => (await cells(link))[6], { timeout: 30_000 }).toBe('진행중');
    expect((await cells(link))[7]).toContain('500');

    await moveOnB(f.providerOrderId!, { status: 3, remains: 40 });
    await expect.poll(async () => (await cells(link))[6], { timeout: 30_000 }).toBe('부분 완료');
    expect((await cells(link))[8]).toContain('40');
    const refunded = before - unitDeci * amount + unitDeci * 40;
    await eventually(() => balanceDeci(member.token), (p) => p === refunded, 30_000, 'partial refund');
    await expect.poll(() => navBalance().textContent(), { timeout: 30_000 }).toContain(wonText(refunded));
    expect(visit.errors).toEqual([]);
  });

  it('shows B’s cancel with the full refund, and B’s completed, after navigating back to the history', async () => {
    const canceled = `https://www.instagram.com/p/two-panels-c-${uniqueId('p')}`;
    const completed = `https://www.instagram.com/p/two-panels-d-${uniqueId('p')}`;
    const first = await orderInBrowser(visit, canceled);
    const second = await orderInBrowser(visit, completed);
    const [fc, fd] = await Promise.all([first, second].map((id) => eventually(() => forwardOf(id), (x) => x?.state === 'accepted', 60_000, 'forwarded to B')));
    const before = await balanceDeci(member.token);
    await visit.page.goto('/order');
    await heading(visit.page, '주문하기');
    await moveOnB(fc!.providerOrderId!, { status: 5 });
    await moveOnB(fd!.providerOrderId!, { status: 2 });
    await eventually(() => balanceDeci(member.token), (p) => p === before + unitDeci * amount, 30_000, 'full refund');
    await visit.page.getByRole('navigation', { name: '주 메뉴', exact: true }).getByRole('link', { name: '주문 내역', exact: true }).click();
    await heading(visit.page, '주문 내역');
    await expect.poll(async () => (await cells(canceled))[6], { timeout: 30_000 }).toBe('취소(전액 환불)');
    await expect.poll(async () => (await cells(completed))[6], { timeout: 30_000 }).toBe('완료');
    expect((await cells(completed))[8]).toContain('0');
    await expect.poll(() => navBalance().textContent()).toContain(wonText(before + unitDeci * amount));
    expect(visit.errors).toEqual([]);
  });

  it('screenshots of the history with B’s statuses', async () => {
    for (const [theme, viewport] of [['light', desktop], ['dark', desktop], ['light', laptop], ['dark', laptop]] as Array<[Theme, Viewport]>) {
      const v = await open({ token: member.token, theme, viewport });
      await v.page.goto('/order-history');
      await heading(v.page, '주문 내역');
      await v.page.getByRole('row').filter({ hasText: 'two-panels' }).first().waitFor();
      await shot(v.page, `two-panels-history-${viewport.width}-${theme}`);
      expect(v.errors).toEqual([]);
      await v.context.close();
    }
  }, 240_000);
});
