import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, api, asAdmin, balanceDeci, eventually, fund, login, newMember, placeOrder, uniqueId } from './support/api.ts';
import { type Theme, type Viewport, desktop, disconnect, heading, open, shot, toasts } from './support/browser.ts';
import { PanelProvider } from './support/panel-provider.ts';

/**
 * Providers and the review queue in the console (issue 12): a provider added with its key masked,
 * its connection checked (balance, low-balance warning), its services imported and a product of
 * ours mapped to one (admin only); orders whose forwarding outcome is unknown settled from the
 * review queue (link the provider's order id, cancel with a full refund) by an admin or by staff.
 * Screenshots at 1440 and 1024 px in both themes (artifacts/admin-providers-*.png,
 * admin-review-*.png, admin-review-staff-*.png).
 */
const laptop: Viewport = { width: 1024, height: 768 };
const panel = new PanelProvider(`panel-key-${uniqueId('k')}`);
const providerName = `테스트 패널 ${uniqueId('p').slice(-5)}`;
let productId: number;
let member: Member;
let staffToken: string;

type Forward = { orderId: number; state: string; providerOrderId: string | null };
const forward = async (orderId: number) => (await api<Forward>('GET', `/admin/fulfillment/forwards/${orderId}`, { token: await asAdmin() })).body;

beforeAll(async () => {
  await panel.start();
  // A product of its own: the seeded ones are other files' fixtures and must keep their prices.
  const made = await api<{ id: number }>('POST', '/admin/services', { token: await asAdmin(), body: { text: `대행 상품 ${uniqueId('s').slice(-5)}`, categoryId: 1, min: 10, max: 1000, point: '5' } });
  if (made.status !== 201) throw new Error(`product answered ${made.status} ${JSON.stringify(made.body)}`);
  productId = made.body.id;
  member = await newMember();
  await fund(member, 20_000);
  const staff = await newMember();
  const promoted = await api('PUT', `/admin/members/${staff.userId}/role`, { token: await asAdmin(), body: { role: 'staff' } });
  if (promoted.status !== 200) throw new Error(`role answered ${promoted.status} ${JSON.stringify(promoted.body)}`);
  staffToken = await login(staff.id, staff.password);
});
afterAll(async () => {
  await disconnect();
  await panel.stop();
});

async function openScreen(path: 'providers' | 'review', theme: Theme = 'light', viewport: Viewport = desktop, token?: string) {
  const visit = await open({ token: token ?? (await asAdmin()), theme, viewport });
  await visit.page.goto(`/admin/${path}`);
  await heading(visit.page, path === 'providers' ? '공급처' : '전달 확인');
  return visit;
}

describe('providers', () => {
  it('an admin adds a provider, checks its connection, imports its services and maps a product to one', async () => {
    const { page, context, errors } = await openScreen('providers');
    const form = page.getByRole('form', { name: '공급처 추가' });
    await form.getByLabel('이름').fill(providerName);
    await form.getByLabel('API 주소').fill('ftp://panel.example.com');
    await form.getByRole('button', { name: '저장하기' }).click();
    expect(await page.getByRole('alert').first().textContent()).toBe('API 주소는 http:// 또는 https://로 시작해야 합니다.');
    await form.getByLabel('API 주소').fill(panel.url);
    await form.getByRole('button', { name: '저장하기' }).click();
    expect(await page.getByRole('alert').first().textContent()).toBe('API 키를 입력해 주세요.');
    await form.getByLabel('API 키').fill(panel.key);
    await form.getByLabel('잔액 경고 기준').fill('500');
    await form.getByRole('button', { name: '저장하기' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('공급처를 추가했습니다.');

    const row = page.getByRole('table', { name: '공급처', exact: true }).locator('tbody tr', { hasText: providerName });
    await row.waitFor();
    expect(await row.textContent()).toContain(panel.key.slice(-4));
    expect(await row.textContent()).not.toContain(panel.key);
    expect(await row.textContent()).toContain('확인 전');

    await row.getByRole('button', { name: '연결 확인' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('연결에 성공했습니다. 잔액 120.50 KRW');
    await expect.poll(() => row.textContent()).toContain('잔액 부족');
    expect(await row.textContent()).toContain('120.50 KRW');
    // Operators are told on the same screen: a notice that stays marked new until confirmed.
    const notices = page.getByTestId('provider-notices');
    await expect.poll(() => notices.textContent()).toContain(`공급처 ${providerName}의 잔액(120.50 KRW)이 경고 기준(500 KRW) 아래로`);
    expect(await notices.textContent()).toContain('새 알림');
    await notices.getByRole('button', { name: '모두 확인' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('알림을 모두 확인했습니다.');
    await expect.poll(() => notices.textContent()).not.toContain('새 알림');

    await row.getByRole('button', { name: '서비스 가져오기' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('서비스 2개를 가져왔습니다.');

    const mapping = page.getByRole('form', { name: '상품 연결' });
    await mapping.getByRole('button', { name: '연결 저장' }).click();
    expect(await page.getByRole('alert').first().textContent()).toBe('상품을 골라 주세요.');
    await mapping.getByLabel('상품').selectOption(String(productId));
    await mapping.getByLabel('공급처', { exact: true }).selectOption({ label: providerName });
    await mapping.getByLabel('공급처 서비스').selectOption('502');
    await mapping.getByLabel('마진율(%)').fill('abc');
    await mapping.getByRole('button', { name: '연결 저장' }).click();
    expect(await page.getByRole('alert').first().textContent()).toBe('마진율은 0에서 1000 사이의 정수로 입력해 주세요.');
    await mapping.getByLabel('마진율(%)').fill('20');
    await mapping.getByRole('button', { name: '연결 저장' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('상품 연결을 저장했습니다.');
    const mapped = page.getByTestId(`mapping-${productId}`);
    await mapped.waitFor();
    expect(await mapped.textContent()).toContain('원가 + 20%');
    expect(await mapped.textContent()).toContain('#502');
    // The catalogue takes the provider's limits.
    await eventually(async () => (await api<Array<{ id: number; min: number; max: number }>>('GET', '/service/services')).body.find((p) => p.id === productId), (p) => p?.min === 20 && p.max === 2000, 20_000, 'product limits from the mapping');

    // Edited without retyping the key: the stored one stays (the connection still answers).
    await row.getByRole('button', { name: '변경' }).click();
    const edit = page.getByRole('form', { name: `공급처 수정 · ${providerName}` });
    await edit.getByLabel('잔액 경고 기준').fill('100');
    await edit.getByRole('button', { name: '저장하기' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('공급처를 수정했습니다.');
    await row.getByRole('button', { name: '연결 확인' }).click();
    await expect.poll(() => row.textContent()).not.toContain('잔액 부족');
    expect(await row.textContent()).toContain(panel.key.slice(-4));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('staff see the review queue but neither the providers screen nor its API', async () => {
    const { page, context } = await open({ token: staffToken });
    await page.goto('/admin/providers');
    await heading(page, '대시보드');
    const nav = page.getByRole('navigation', { name: '콘솔 메뉴' });
    expect(await nav.getByRole('link', { name: '공급처' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: '전달 확인' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: '공급처 잔액' }).count()).toBe(0);
    await context.close();
    for (const path of ['/admin/fulfillment/providers', '/admin/fulfillment/mappings', '/admin/fulfillment/notices']) expect((await api('GET', path, { token: staffToken })).status, path).toBe(403);
    const check = await api<{ code: string }>('POST', '/admin/fulfillment/sync/balances', { token: staffToken });
    expect([check.status, check.body.code]).toEqual([403, 'ADMIN_ONLY']);
  });
});

describe('review queue', () => {
  const inReview = async () => {
    const order = await placeOrder(member, { serviceId: productId, link: `https://instagram.com/p/${uniqueId('r')}`, amount: 100 });
    await eventually(() => forward(order.id), (f) => f?.state === 'review', 30_000, `order ${order.id} in review`);
    return order.id;
  };

  beforeAll(() => {
    panel.addAnswer = 'no-id';
  });

  it('an order linked to the provider order id found on its panel leaves the queue and follows that order', async () => {
    const orderId = await inReview();
    // Reachable from the orders screen, where the number waiting shows.
    const { page, context, errors } = await open({ token: await asAdmin() });
    await page.goto('/admin/orders');
    await heading(page, '주문');
    await page.getByTestId('review-link').click();
    await heading(page, '전달 확인');
    const row = page.getByTestId(`review-${orderId}`);
    expect(await row.textContent()).toContain('전달 결과를 알 수 없음');
    await row.getByRole('button', { name: '주문 번호 연결' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('공급처 주문 번호').fill('7001 x');
    await dialog.getByRole('button', { name: '주문 번호 연결' }).click();
    expect(await dialog.getByRole('alert').textContent()).toBe('공급처 주문 번호는 영문, 숫자, -, _ 로 64자까지 입력해 주세요.');
    const remote = [...panel.orders.keys()].at(-1)!;
    await dialog.getByLabel('공급처 주문 번호').fill(String(remote));
    await dialog.getByRole('button', { name: '주문 번호 연결' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('공급처 주문 번호를 연결했습니다.');
    await row.waitFor({ state: 'detached' });
    const after = await forward(orderId);
    expect(after.providerOrderId).toBe(String(remote));
    expect(after.state).not.toBe('review');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('staff open 전달 확인 from the navigation and link an order there; the audit log names them', async () => {
    const orderId = await inReview();
    const { page, context, errors } = await open({ token: staffToken });
    await page.goto('/admin/dashboard');
    await heading(page, '대시보드');
    // The dashboard counts the queue for staff too and leads to it.
    const todo = page.getByTestId('todo');
    await expect.poll(() => todo.textContent()).toContain('전달 확인 대기');
    await page.getByRole('navigation', { name: '콘솔 메뉴' }).getByRole('link', { name: '전달 확인' }).click();
    await heading(page, '전달 확인');
    const row = page.getByTestId(`review-${orderId}`);
    await row.waitFor();
    expect(await row.textContent()).toContain(providerName);
    await row.getByRole('button', { name: '주문 번호 연결' }).click();
    const remote = [...panel.orders.keys()].at(-1)!;
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('공급처 주문 번호').fill(String(remote));
    await dialog.getByRole('button', { name: '주문 번호 연결' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('공급처 주문 번호를 연결했습니다.');
    await row.waitFor({ state: 'detached' });
    const after = await forward(orderId);
    expect([after.providerOrderId, after.state === 'review']).toEqual([String(remote), false]);
    expect(errors).toEqual([]);
    await context.close();
    type AuditPage = { items: Array<{ actor: { role: string }; action: string; target: { id: string } }> };
    const audit = await eventually(
      async () => (await api<AuditPage>('GET', `/admin/audit?action=fulfillment.review.resolve&target=${orderId}`, { token: await asAdmin() })).body,
      (b) => b.items?.length === 1,
      20_000,
      'audit record of the staff resolution',
    );
    expect(audit.items[0]!.actor.role).toBe('staff');
  });

  it('an order canceled from the queue is refunded in full', async () => {
    const before = await balanceDeci(member.token);
    const orderId = await inReview();
    await eventually(() => balanceDeci(member.token), (deci) => deci < before, 20_000, 'balance after the order');
    const { page, context } = await openScreen('review');
    const row = page.getByTestId(`review-${orderId}`);
    await row.getByRole('button', { name: '취소·환불' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '취소·환불' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('주문을 취소하고 전액 환불했습니다.');
    await row.waitFor({ state: 'detached' });
    await eventually(() => balanceDeci(member.token), (deci) => deci === before, 20_000, 'balance after the refund');
    await context.close();
  });
});

describe('screenshots', () => {
  beforeAll(async () => {
    const order = await placeOrder(member, { serviceId: productId, link: 'https://instagram.com/p/shot-review', amount: 50 });
    await eventually(() => forward(order.id), (f) => f?.state === 'review', 30_000, `order ${order.id} in review`);
  });

  it.each([
    ['light', '1440', desktop],
    ['dark', '1440', desktop],
    ['light', '1024', laptop],
    ['dark', '1024', laptop],
  ] as const)('providers and review queue (admin, staff), %s theme at %s px', async (theme, width, viewport) => {
    const providers = await openScreen('providers', theme, viewport);
    await providers.page.getByTestId(`mapping-${productId}`).waitFor();
    await shot(providers.page, `admin-providers-${theme}-${width}`);
    await providers.context.close();
    const review = await openScreen('review', theme, viewport);
    await review.page.locator('tbody tr').first().waitFor();
    await shot(review.page, `admin-review-${theme}-${width}`);
    await review.context.close();
    const staff = await openScreen('review', theme, viewport, staffToken);
    await staff.page.locator('tbody tr').first().waitFor();
    await shot(staff.page, `admin-review-staff-${theme}-${width}`);
    await staff.context.close();
  });
});
