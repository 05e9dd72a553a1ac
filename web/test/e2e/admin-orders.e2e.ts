import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, api, asAdmin, balanceDeci, eventually, fund, login, newMember, placeOrder, serviceNamed } from './support/api.ts';
import { type Theme, type Viewport, desktop, disconnect, heading, open, shot, toasts } from './support/browser.ts';
import { PanelProvider } from './support/panel-provider.ts';

/**
 * Orders in the console (issue 12): server-side search, one or many status changes, start count and
 * remains; each row's forwarding (state, provider, provider's order id) and the provider filter,
 * with two upstream panels (support/panel-provider.ts) carrying a second member's orders.
 */
const laptop: Viewport = { width: 1024, height: 768 };
let member: Member;
let staffToken: string;
const link = `https://www.instagram.com/p/console-${Date.now().toString(36)}`;
const orderIds: number[] = [];
/** Panel A takes orders; panel B answers `add` without an order id, so its order waits for review. */
const panels = [new PanelProvider(`orders-a-${Date.now().toString(36)}`), new PanelProvider(`orders-b-${Date.now().toString(36)}`)];
const providers: Array<{ id: number; name: string; productId: number }> = [];
let buyer: Member;
/** The buyer's orders: two through panel A, one through panel B, one handled by hand (newest first). */
const bought = { a: [] as number[], b: 0, manual: 0 };
type Forward = { state: string; providerOrderId: string | null };
const forwardOf = async (id: number) => (await api<Forward>('GET', `/admin/fulfillment/forwards/${id}`, { token: await asAdmin() })).body;

beforeAll(async () => {
  member = await newMember();
  await fund(member, 20_000);
  const likes = await serviceNamed('인스타그램 한국인 좋아요');
  orderIds.push((await placeOrder(member, { serviceId: likes.id, link, amount: 100 })).id);
  orderIds.push((await placeOrder(member, { serviceId: likes.id, link, amount: 200 })).id);
  orderIds.push((await placeOrder(member, { serviceId: likes.id, link: 'https://www.instagram.com/p/other-one', amount: 300 })).id);
  const staff = await newMember();
  await api('PUT', `/admin/members/${staff.userId}/role`, { token: await asAdmin(), body: { role: 'staff' } });
  staffToken = await login(staff.id, staff.password);

  const admin = await asAdmin();
  panels[1]!.addAnswer = 'no-id';
  for (const [n, panel] of panels.entries()) {
    await panel.start();
    const name = `공급처 ${n === 0 ? '가' : '나'} ${Date.now().toString(36).slice(-4)}`;
    const created = await api<{ id: number }>('POST', '/admin/fulfillment/providers', { token: admin, body: { name, url: panel.url, key: panel.key, currency: 'KRW', wonDeciPerUnit: 10 } });
    if (created.status !== 201) throw new Error(`provider answered ${created.status} ${JSON.stringify(created.body)}`);
    await api('POST', `/admin/fulfillment/providers/${created.body.id}/import`, { token: admin });
    const made = await api<{ id: number }>('POST', '/admin/services', { token: admin, body: { text: `공급처 ${n === 0 ? '가' : '나'} 대행 좋아요`, categoryId: 1, min: 10, max: 1000, point: '5' } });
    if (made.status !== 201) throw new Error(`product answered ${made.status} ${JSON.stringify(made.body)}`);
    const mapped = await api('PUT', `/admin/fulfillment/mappings/${made.body.id}`, { token: admin, body: { mode: 'provider', providerId: created.body.id, providerServiceId: '501', rule: { kind: 'markup', percent: 10 } } });
    if (mapped.status !== 200) throw new Error(`mapping answered ${mapped.status} ${JSON.stringify(mapped.body)}`);
    providers.push({ id: created.body.id, name, productId: made.body.id });
  }
  buyer = await newMember();
  await fund(buyer, 20_000);
  const at = (path: string) => `https://www.instagram.com/p/${path}-${Date.now().toString(36)}`;
  bought.manual = (await placeOrder(buyer, { serviceId: likes.id, link: at('by-hand'), amount: 100 })).id;
  for (const n of [0, 0, 1]) {
    // The catalogue reaches order a moment after the product is made: retry until it sells.
    const id = (await eventually(() => placeOrder(buyer, { serviceId: providers[n]!.productId, link: at(`via-${n}`), amount: 100 }).catch(() => null), (o) => o !== null, 20_000, 'order of the mapped product'))!.id;
    if (n === 0) bought.a.unshift(id);
    else bought.b = id;
  }
  for (const id of bought.a) await eventually(() => forwardOf(id), (f) => f?.state === 'accepted', 60_000, 'forwarded to panel A');
  await eventually(() => forwardOf(bought.b), (f) => f?.state === 'review', 60_000, 'panel B’s answer under review');
}, 240_000);
afterAll(async () => {
  await disconnect();
  for (const panel of panels) await panel.stop();
});

type Row = { id: number; status: number; startCount: number | null; remains: number };
const orderOf = async (id: number) => (await api<{ items: Row[] }>('GET', `/admin/orders/search?orderId=${id}`, { token: await asAdmin() })).body.items[0];

async function openOrders(theme: Theme = 'light', viewport: Viewport = desktop, who: Member = member, rows = 3, token = staffToken) {
  const visit = await open({ token, theme, viewport });
  await visit.page.goto('/admin/orders');
  await heading(visit.page, '주문');
  await visit.page.getByLabel('회원 아이디').fill(who.id);
  await visit.page.getByRole('button', { name: '검색', exact: true }).click();
  // The unfiltered first page already holds these recent orders: wait for the search's answer, not for a row.
  await expect.poll(() => visit.page.locator('tbody tr').count()).toBe(rows);
  return visit;
}

describe('orders in the console', () => {
  it('staff find a member’s orders, narrow them by link, and move two at once', async () => {
    const { page, context, errors } = await openOrders();
    expect(await page.getByTestId(`order-${orderIds[0]}`).textContent()).toContain(member.id);
    await page.getByLabel('링크').fill(link);
    await page.getByRole('button', { name: '검색', exact: true }).click();
    await page.getByTestId(`order-${orderIds[2]}`).waitFor({ state: 'detached' });
    await page.getByLabel(`주문 ${orderIds[0]} 선택`).check();
    await page.getByLabel(`주문 ${orderIds[1]} 선택`).check();
    await page.getByLabel('바꿀 상태').selectOption({ label: '진행중' });
    await page.getByRole('button', { name: '선택한 주문 상태 변경' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('2건의 상태를 바꿨습니다.');
    expect((await orderOf(orderIds[0]!))?.status).toBe(1);
    expect((await orderOf(orderIds[1]!))?.status).toBe(1);
    expect((await orderOf(orderIds[2]!))?.status).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sets start count and remains of one order; a final order refuses a later change and says so', async () => {
    // An admin: cancelling with a full refund is an admin's change (staff move orders along only).
    const { page, context } = await openOrders('light', desktop, member, 3, await asAdmin());
    await page.getByTestId(`order-${orderIds[2]}`).getByRole('button', { name: '변경' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('시작 수량').fill('1200');
    await dialog.getByLabel('남은 수량').fill('30');
    await dialog.getByLabel('주문 상태').selectOption({ label: '처리 대기' });
    await dialog.getByRole('button', { name: '저장하기' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('주문을 변경했습니다.');
    expect(await orderOf(orderIds[2]!)).toMatchObject({ status: 4, startCount: 1200, remains: 30 });
    await expect.poll(() => page.getByTestId(`order-${orderIds[2]}`).textContent()).toContain('1,200 / 30');

    const before = await balanceDeci(member.token);
    await page.getByLabel(`주문 ${orderIds[0]} 선택`).check();
    await page.getByLabel('바꿀 상태').selectOption({ label: '취소(전액 환불)' });
    await page.getByRole('button', { name: '선택한 주문 상태 변경' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('1건의 상태를 바꿨습니다.');
    await eventually(() => balanceDeci(member.token), (deci) => deci > before, 20_000, 'refund of the canceled order');
    await page.getByLabel(`주문 ${orderIds[0]} 선택`).check();
    await page.getByLabel(`주문 ${orderIds[1]} 선택`).check();
    await page.getByLabel('바꿀 상태').selectOption({ label: '완료' });
    await page.getByRole('button', { name: '선택한 주문 상태 변경' }).click();
    await expect.poll(async () => (await toasts(page).allTextContents()).join(' ')).toContain('1건을 바꿨고 1건은 바꾸지 못했습니다.');
    expect((await orderOf(orderIds[0]!))?.status).toBe(5);
    expect((await orderOf(orderIds[1]!))?.status).toBe(2);
    await context.close();
  });
});

describe('forwarding in the order list', () => {
  it('shows each order’s forwarding state, provider and provider’s order id, and filters by provider', async () => {
    const { page, context, errors } = await openOrders('light', desktop, buyer, 4);
    const cells = (id: number) => page.getByTestId(`order-${id}`).locator('td');
    const header = await page.locator('thead th').allTextContents();
    const stateAt = header.indexOf('전달 상태');
    const providerAt = header.indexOf('공급처 주문');
    expect([stateAt, providerAt]).toEqual([9, 10]);
    for (const id of bought.a) {
      const f = await forwardOf(id);
      await expect.poll(() => cells(id).nth(stateAt).innerText()).toBe('전달됨');
      expect(await cells(id).nth(providerAt).textContent()).toBe(`${providers[0]!.name}#${f.providerOrderId}`);
    }
    expect(await cells(bought.b).nth(stateAt).innerText()).toBe('전달 확인 대기');
    expect(await cells(bought.b).nth(providerAt).textContent()).toBe(`${providers[1]!.name}—`);
    expect(await cells(bought.manual).nth(stateAt).innerText()).toBe('수동 처리');
    expect(await cells(bought.manual).nth(providerAt).textContent()).toBe('—');

    const filter = page.getByLabel('공급처', { exact: true });
    await expect.poll(() => filter.locator('option').allTextContents()).toEqual(expect.arrayContaining([providers[0]!.name, providers[1]!.name]));
    await filter.selectOption({ label: providers[0]!.name });
    await page.getByRole('button', { name: '검색', exact: true }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
    expect(await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')))).toEqual(bought.a.map((id) => `order-${id}`));
    await filter.selectOption({ label: providers[1]!.name });
    await page.getByRole('button', { name: '검색', exact: true }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr').getAttribute('data-testid')).toBe(`order-${bought.b}`);
    // The provider filter with a status: panel A's orders are still accepted (0), none in progress.
    await page.getByRole('group', { name: '주문 상태' }).getByRole('button', { name: '진행중' }).click();
    await expect.poll(() => page.getByText('조건에 맞는 주문이 없습니다.').count()).toBe(1);
    // Editing a filtered row still works.
    await page.getByRole('group', { name: '주문 상태' }).getByRole('button', { name: '전체' }).click();
    await filter.selectOption({ label: providers[0]!.name });
    await page.getByRole('button', { name: '검색', exact: true }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
    await page.getByTestId(`order-${bought.a[0]}`).getByRole('button', { name: '변경' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('시작 수량').fill('700');
    await dialog.getByRole('button', { name: '저장하기' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('주문을 변경했습니다.');
    await expect.poll(() => cells(bought.a[0]!).nth(7).textContent()).toContain('700 /');
    expect(await cells(bought.a[0]!).nth(stateAt).innerText()).toBe('전달됨');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('screenshots', () => {
  it.each([
    ['light', '1440', desktop],
    ['dark', '1440', desktop],
    ['light', '1024', laptop],
    ['dark', '1024', laptop],
  ] as const)('orders, %s theme at %s px', async (theme, width, viewport) => {
    const { page, context } = await openOrders(theme, viewport, buyer, 4);
    await page.getByLabel(`주문 ${bought.b} 선택`).check();
    // Up to 1280 px the provider column folds under the forwarding state.
    const stateCell = page.getByTestId(`order-${bought.a[0]}`).locator('td').nth(9);
    if (viewport === laptop) {
      expect(await page.getByRole('columnheader', { name: '공급처 주문' }).isVisible()).toBe(false);
      expect((await stateCell.innerText()).replace(/\s+/g, ' ')).toContain(`전달됨 ${providers[0]!.name}`);
    } else expect(await stateCell.innerText()).toBe('전달됨');
    await shot(page, `admin-orders-${theme}-${width}`);
    await context.close();
  });
});
