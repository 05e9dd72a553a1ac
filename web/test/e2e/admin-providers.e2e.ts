import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, api, asAdmin, balanceDeci, eventually, fund, login, newMember, placeOrder, uniqueId } from './support/api.ts';
import { type Theme, type Viewport, desktop, disconnect, heading, open, phone, shot, toasts } from './support/browser.ts';
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
    // The row comes with the queue, the provider's name with the names' own read (— until then).
    await expect.poll(() => row.textContent()).toContain(providerName);
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

/**
 * Issue 41: refill and cancel requests in fulfillment's queue. A member's refill answered with a
 * forged refill id (-1) and a cancel the provider refuses land in 리필·취소 요청 with the provider's
 * answer; a status the sync cannot read ("Exploded") puts an order the provider holds in review,
 * where it is resumed, not sent again; a provider whose check fails shows 실패 with the reason in
 * Korean. Screenshots at 1280 and 390 px in both themes (admin-requests-*, admin-review-41-*,
 * admin-providers-41-*).
 */
describe('request queue (issue 41)', () => {
  const wide: Viewport = { width: 1280, height: 800 };
  let refillProduct: number;
  let refillOrder: number;
  let cancelOrder: number;
  let explodedOrder: number;
  let admin: string;
  type Request = { id: string; orderId: number; state: string; unclear: boolean; answer: string | null };
  const requests = async (q = '') => (await api<{ items: Request[] }>('GET', `/admin/fulfillment/requests${q}`, { token: admin })).body.items;
  const syncStatuses = async () => expect((await api('POST', '/admin/fulfillment/sync/statuses', { token: admin })).status).toBe(200);

  beforeAll(async () => {
    admin = await asAdmin();
    panel.addAnswer = 'ok';
    panel.services.push(PanelProvider.refillCancelService);
    const providers = (await api<Array<{ id: number; name: string }>>('GET', '/admin/fulfillment/providers', { token: admin })).body;
    const providerId = providers.find((p) => p.name === providerName)!.id;
    expect((await api('POST', `/admin/fulfillment/providers/${providerId}/import`, { token: admin })).status).toBe(200);
    const made = await api<{ id: number }>('POST', '/admin/services', { token: admin, body: { text: `리필 상품 ${uniqueId('s').slice(-5)}`, categoryId: 1, min: 10, max: 1000, point: '2' } });
    refillProduct = made.body.id;
    const mapped = await api('PUT', `/admin/fulfillment/mappings/${refillProduct}`, { token: admin, body: { mode: 'provider', providerId, providerServiceId: '503', rule: { kind: 'markup', percent: 0 } } });
    expect(mapped.status, JSON.stringify(mapped.body)).toBe(200);
    const accepted = async () => {
      const order = await eventually(() => placeOrder(member, { serviceId: refillProduct, link: `https://instagram.com/p/${uniqueId('q')}`, amount: 100 }).catch(() => null), (o) => o !== null, 20_000, 'order of the mapped product');
      const f = await eventually(() => forward(order!.id), (x) => x?.state === 'accepted', 30_000, `order ${order!.id} forwarded`);
      return { id: order!.id, remote: Number(f.providerOrderId) };
    };
    const [a, b, c] = [await accepted(), await accepted(), await accepted()];
    [refillOrder, cancelOrder, explodedOrder] = [a.id, b.id, c.id];
    panel.orders.get(a.remote)!.status = 'Completed';
    panel.statusEntries.set(c.remote, { status: 'Exploded', remains: '-3' });
    await syncStatuses();
    await eventually(async () => (await api<{ items: Array<{ id: number; status: number }> }>('GET', `/service/order-history?pageSize=50`, { token: member.token })).body.items?.find((o) => o.id === refillOrder)?.status, (st) => st === 2, 20_000, 'refill order completed');
    // The member's refill gets a forged id back: unclear, kept, and a second refill is not sent again.
    panel.refillAnswer = 'forged';
    const first = await api<{ code: string }>('POST', `/service/orders/${refillOrder}/refill`, { token: member.token });
    expect([first.status, first.body.code]).toEqual([502, 'PROVIDER_UNCLEAR']);
    const second = await api<{ existing?: boolean }>('POST', `/service/orders/${refillOrder}/refill`, { token: member.token });
    expect([second.status, second.body.existing]).toEqual([200, true]);
    // The provider refuses the cancel.
    panel.cancelAnswer = 'refuse';
    const cancel = await api<{ code: string }>('POST', `/service/orders/${cancelOrder}/cancel`, { token: member.token });
    expect([cancel.status, cancel.body.code]).toEqual([409, 'PROVIDER_REFUSED']);
    panel.refillAnswer = 'ok';
    panel.cancelAnswer = 'ok';
    // Another member cannot touch these orders.
    const other = await newMember();
    expect((await api('POST', `/service/orders/${cancelOrder}/cancel`, { token: other.token })).status).toBe(404);
    expect((await api('POST', `/service/orders/${refillOrder}/refill`, { token: other.token })).status).toBe(404);
    // A provider that does not answer its check is failing, not "not checked yet".
    const down = await api<{ id: number }>('POST', '/admin/fulfillment/providers', { token: admin, body: { name: `멈춘 패널 ${uniqueId('d').slice(-4)}`, url: 'http://127.0.0.1:9/api/v2', key: 'down-key-0001' } });
    expect((await api<{ ok: boolean }>('POST', `/admin/fulfillment/providers/${down.body.id}/check`, { token: admin })).body.ok).toBe(false);
  });

  it.each([
    ['light', '1280', wide],
    ['dark', '1280', wide],
    ['light', '390', phone],
    ['dark', '390', phone],
  ] as const)('screenshots: the request queue, the review queue and providers, %s theme at %s px', async (theme, width, viewport) => {
    const visit = await open({ token: admin, theme, viewport });
    await visit.page.goto('/admin/requests');
    await heading(visit.page, '리필·취소 요청');
    // The list refreshes on its own; on a loaded machine its first answer can take a while.
    await visit.page.getByTestId(`request-${(await requests()).find((r) => r.orderId === refillOrder)!.id}`).waitFor({ timeout: 30_000 });
    await shot(visit.page, `admin-requests-${theme}-${width}`);
    // The provider's answer keeps a readable width in the scrolled table: a row stays a row on a phone (it was ~220 px).
    const cancelRow = visit.page.getByTestId(`request-${(await requests()).find((r) => r.orderId === cancelOrder)!.id}`);
    expect(await cancelRow.innerText()).toContain('[{"order":');
    expect((await cancelRow.boundingBox())!.height).toBeLessThan(150);
    await visit.page.goto('/admin/review');
    await heading(visit.page, '전달 확인');
    await visit.page.getByTestId(`review-${explodedOrder}`).waitFor({ timeout: 30_000 });
    await shot(visit.page, `admin-review-41-${theme}-${width}`);
    await visit.page.goto('/admin/providers');
    await heading(visit.page, '공급처');
    await visit.page.getByText('확인 실패').first().waitFor({ timeout: 30_000 });
    await shot(visit.page, `admin-providers-41-${theme}-${width}`);
    expect(visit.errors).toEqual([]);
    await visit.context.close();
  });

  it('staff retry the unclear refill and an admin closes the refused cancel; the order the provider holds is resumed, never sent again', async () => {
    const failed = await requests();
    const refill = failed.find((r) => r.orderId === refillOrder)!;
    const cancel = failed.find((r) => r.orderId === cancelOrder)!;
    expect(refill).toMatchObject({ state: 'failed', unclear: true, answer: '{"refill":-1}' });
    expect(cancel).toMatchObject({ state: 'failed', unclear: false, answer: expect.stringContaining('Cannot cancel this order') });

    const staffVisit = await open({ token: staffToken });
    await staffVisit.page.goto('/admin/requests');
    await heading(staffVisit.page, '리필·취소 요청');
    const row = staffVisit.page.getByTestId(`request-${refill.id}`);
    expect(await row.textContent()).toContain('답 불분명');
    expect(await row.textContent()).toContain('리필 번호가 없는 답');
    await row.getByRole('button', { name: '다시 보내기' }).click();
    await staffVisit.page.getByRole('dialog').getByRole('button', { name: '다시 보내기' }).click();
    await expect.poll(() => toasts(staffVisit.page).allTextContents()).toContain('다시 보냈습니다: 공급처 접수');
    await row.waitFor({ state: 'detached' });
    expect(staffVisit.errors).toEqual([]);
    await staffVisit.context.close();

    const adminVisit = await open({ token: admin });
    await adminVisit.page.goto('/admin/requests');
    await heading(adminVisit.page, '리필·취소 요청');
    const cancelRow = adminVisit.page.getByTestId(`request-${cancel.id}`);
    await cancelRow.getByRole('button', { name: '요청 닫기' }).click();
    const dialog = adminVisit.page.getByRole('dialog');
    await dialog.getByLabel('메모(200자까지)').fill('공급처에 직접 취소 요청함');
    await dialog.getByRole('button', { name: '요청 닫기' }).click();
    await expect.poll(() => toasts(adminVisit.page).allTextContents()).toContain('요청을 닫았습니다.');
    await cancelRow.waitFor({ state: 'detached' });

    // The order whose status answer was "Exploded": resume instead of resend.
    await adminVisit.page.goto('/admin/review');
    await heading(adminVisit.page, '전달 확인');
    const held = adminVisit.page.getByTestId(`review-${explodedOrder}`);
    expect(await held.textContent()).toContain('알 수 없는 주문 상태');
    expect(await held.getByRole('button', { name: '다시 보내기' }).count()).toBe(0);
    await held.getByRole('button', { name: '상태 확인 재개' }).click();
    await adminVisit.page.getByRole('dialog').getByRole('button', { name: '상태 확인 재개' }).click();
    await expect.poll(() => toasts(adminVisit.page).allTextContents()).toContain('상태 확인을 재개했습니다.');
    await held.waitFor({ state: 'detached' });
    expect((await forward(explodedOrder)).state).toBe('accepted');
    expect(adminVisit.errors).toEqual([]);
    await adminVisit.context.close();
    // The audit log names who settled each request.
    const audit = await eventually(
      async () => (await api<{ items: Array<{ actor: { role: string } }> }>('GET', `/admin/audit?action=fulfillment.request.resolve`, { token: admin })).body,
      (b) => (b.items?.length ?? 0) >= 2,
      20_000,
      'audit records of the request queue',
    );
    expect(audit.items.map((i) => i.actor.role).sort()).toEqual(expect.arrayContaining(['admin', 'staff']));
  });
});
