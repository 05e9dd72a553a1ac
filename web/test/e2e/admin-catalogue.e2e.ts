import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, asAdmin, eventually, login, newMember, setSetting, uniqueId } from './support/api.ts';
import { type Theme, type Viewport, desktop, disconnect, heading, open, shot, toasts } from './support/browser.ts';
import { PanelProvider } from './support/panel-provider.ts';

/**
 * The catalogue and site screens of the console (issue 12, admin only): platforms, categories and
 * products created, edited, reordered and deleted, with the server's Korean refusals shown; a
 * product's provider mapping; notices, FAQ and register-where options; settings saved and seen on
 * the members' screens. Screenshots at 1440 and 1024 px in both themes (artifacts/admin-catalogue-*,
 * admin-content-*, admin-settings-*).
 */
const laptop: Viewport = { width: 1024, height: 768 };
type Row = { id: number; text: string };
const tag = uniqueId('c').slice(-5);
let freePlatformId: number;

const list = async <T,>(path: string) => (await api<T[]>('GET', path, { token: await asAdmin() })).body;
const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id);

beforeAll(async () => {
  const taken = new Set(ids(await list<Row>('/admin/platforms')));
  const free = Array.from({ length: 14 }, (_, i) => i + 1).find((id) => !taken.has(id));
  if (free === undefined) throw new Error('no free platform id 1..14');
  freePlatformId = free;
});
afterAll(disconnect);

async function openScreen(path: 'catalogue' | 'content' | 'settings', theme: Theme = 'light', viewport: Viewport = desktop) {
  const visit = await open({ token: await asAdmin(), theme, viewport });
  await visit.page.goto(`/admin/${path}`);
  await heading(visit.page, { catalogue: '상품 관리', content: '공지·FAQ', settings: '사이트 설정' }[path]);
  return visit;
}

const toast = (page: Page, text: string) => expect.poll(() => toasts(page).allTextContents()).toContain(text);
const rowTexts = (page: Page, section: string) => page.getByTestId(section).locator('tbody tr').allTextContents();

describe('catalogue', () => {
  it('an admin creates, edits, reorders and deletes a platform, its category and its products', async () => {
    const { page, context, errors } = await openScreen('catalogue');
    const platformName = `테스트 플랫폼 ${tag}`;
    await page.getByTestId('platform').getByRole('button', { name: '플랫폼 추가' }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByLabel('플랫폼 번호 (1~14, 아이콘)').fill('15');
    await dialog.getByLabel('이름').fill(platformName);
    await dialog.getByLabel('배경색', { exact: true }).fill('blue');
    await dialog.getByRole('button', { name: '저장하기' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('플랫폼 번호는 1부터 14 사이의 정수여야 합니다.');
    await dialog.getByLabel('플랫폼 번호 (1~14, 아이콘)').fill(String(freePlatformId));
    await dialog.getByRole('button', { name: '저장하기' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('색상은 #RRGGBB 형식으로 입력해 주세요.');
    await dialog.getByLabel('배경색', { exact: true }).fill('#12AB34');
    expect(await dialog.getByTestId('colour-preview').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(18, 171, 52)');
    await dialog.getByRole('button', { name: '저장하기' }).click();
    await toast(page, '플랫폼을 추가했습니다.');
    await dialog.waitFor({ state: 'detached' });
    expect((await rowTexts(page, 'platform')).at(-1)).toContain(platformName);

    // Members see it at the end of the grid, in its colour; one move up puts it before the last seeded one.
    await eventually(async () => ids(await list<Row>('/service/platforms')).at(-1), (id) => id === freePlatformId, 10_000, 'new platform last');
    const before = ids(await list<Row>('/admin/platforms'));
    await page.getByRole('button', { name: `${platformName} 위로` }).click();
    await toast(page, '순서를 바꿨습니다.');
    const expected = [...before.slice(0, -2), freePlatformId, before.at(-2)!];
    expect(ids(await list<Row>('/admin/platforms'))).toEqual(expected);
    await expect.poll(async () => (await rowTexts(page, 'platform')).at(-2)).toContain(platformName);
    const member = await open({ guest: true });
    await member.page.goto('/order');
    const tile = member.page.locator(`[data-platform-id="${freePlatformId}"]`);
    await tile.waitFor();
    expect(await tile.textContent()).toContain(platformName);
    // The grid follows the server's order of the visible platforms.
    const visible = new Set((await list<Row & { visible: boolean }>('/admin/platforms')).filter((p) => p.visible).map((p) => p.id));
    const order = await member.page.locator('[data-platform-id]').evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-platform-id'))));
    expect(order).toEqual(expected.filter((id) => visible.has(id)));
    await member.context.close();

    // Hidden from members, still listed for the operator.
    await page.getByRole('button', { name: `${platformName} 수정` }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('switch', { name: '회원 화면에 노출' }).click();
    await dialog.getByRole('button', { name: '저장하기' }).click();
    await toast(page, '플랫폼을 수정했습니다.');
    await expect.poll(() => page.getByTestId(`platform-${freePlatformId}`).textContent()).toContain('숨김');
    await eventually(async () => ids(await list<Row>('/service/platforms')), (list) => !list.includes(freePlatformId), 10_000, 'platform hidden');

    // A category of the new platform, and two products in it.
    await page.getByRole('button', { name: `${platformName} 카테고리 보기` }).click();
    const categories = page.getByTestId('category');
    await expect.poll(() => categories.getByRole('heading').textContent()).toBe(`카테고리 · ${platformName}`);
    expect(await categories.textContent()).toContain('이 플랫폼에 카테고리가 없습니다.');
    await categories.getByRole('button', { name: '카테고리 추가' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: '저장하기' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('이름을 입력해 주세요.');
    await dialog.getByLabel('이름').fill(`좋아요 ${tag}`);
    await dialog.getByRole('button', { name: '저장하기' }).click();
    await toast(page, '카테고리를 추가했습니다.');
    const products = page.getByTestId('product');
    await expect.poll(() => products.getByRole('heading').textContent()).toBe(`상품 · 좋아요 ${tag}`);

    const addProduct = async (name: string, point: string, min: string, max: string) => {
      await products.getByRole('button', { name: '상품 추가' }).click();
      dialog = page.getByRole('dialog');
      await dialog.getByLabel('상품명').fill(name);
      await dialog.getByLabel('단가 (원, 1개당)').fill(point);
      await dialog.getByLabel('최소 수량').fill(min);
      await dialog.getByLabel('최대 수량').fill(max);
      await dialog.getByRole('button', { name: '저장하기' }).click();
    };
    await addProduct(`첫 상품 ${tag}`, '2.55', '10', '1000');
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('단가는 0보다 큰 금액으로, 소수점 첫째 자리까지만 입력할 수 있습니다.');
    await dialog.getByLabel('단가 (원, 1개당)').fill('2.5');
    await dialog.getByLabel('최소 수량').fill('2000');
    await dialog.getByRole('button', { name: '저장하기' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('최소 수량은 최대 수량보다 클 수 없습니다.');
    await dialog.getByLabel('최소 수량').fill('10');
    await dialog.getByLabel('안내 문구').fill('게시물 링크를 넣어 주세요.');
    await dialog.getByRole('switch', { name: '자동 주문 허용' }).click();
    await dialog.getByRole('button', { name: '저장하기' }).click();
    await toast(page, '상품을 추가했습니다.');
    await dialog.waitFor({ state: 'detached' });
    await addProduct(`둘째 상품 ${tag}`, '7', '5', '50');
    await toast(page, '상품을 추가했습니다.');
    await expect.poll(() => rowTexts(page, 'product')).toHaveLength(2);
    const [first, second] = await rowTexts(page, 'product');
    expect(first).toContain('2.5원');
    expect(first).toContain('10~1,000');
    expect(first).toContain('연결 없음');
    expect(second).toContain('7원');
    const created = (await list<Row & { categoryId: number; enableAuto: boolean; notice: string; unitPriceDeci: number }>('/admin/services')).filter((p) => p.text.endsWith(tag));
    expect(created.map((p) => [p.text, p.unitPriceDeci, p.enableAuto, p.notice])).toEqual([
      [`첫 상품 ${tag}`, 25, true, '게시물 링크를 넣어 주세요.'],
      [`둘째 상품 ${tag}`, 70, false, ''],
    ]);

    await page.getByRole('button', { name: `둘째 상품 ${tag} 위로` }).click();
    await toast(page, '순서를 바꿨습니다.');
    await expect.poll(async () => (await rowTexts(page, 'product'))[0]).toContain(`둘째 상품 ${tag}`);
    expect((await list<Row>('/admin/services')).filter((p) => p.text.endsWith(tag)).map((p) => p.text)).toEqual([`둘째 상품 ${tag}`, `첫 상품 ${tag}`]);

    // Edit: read-only and a new price.
    await page.getByRole('button', { name: `첫 상품 ${tag} 수정` }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByLabel('단가 (원, 1개당)').fill('3');
    await dialog.getByRole('switch', { name: '주문 막기 (읽기 전용)' }).click();
    await dialog.getByRole('button', { name: '저장하기' }).click();
    await toast(page, '상품을 수정했습니다.');
    const firstId = created[0]!.id;
    await expect.poll(() => page.getByTestId(`product-${firstId}`).textContent()).toContain('3원');
    expect(await page.getByTestId(`product-${firstId}`).textContent()).toContain('사용');

    // The provider mapping, kept by fulfillment: handled by hand.
    await page.getByRole('button', { name: `첫 상품 ${tag} 공급처 연결` }).click();
    const mapping = page.getByRole('form', { name: `상품 연결 · 첫 상품 ${tag}` });
    await mapping.getByRole('radio', { name: '직접 처리' }).check();
    await mapping.getByRole('button', { name: '연결 저장' }).click();
    await toast(page, '상품 연결을 저장했습니다.');
    await expect.poll(() => page.getByTestId(`product-${firstId}`).textContent()).toContain('직접 처리');

    // Deleting a platform that still has categories is refused; emptied, everything goes.
    await page.getByRole('button', { name: `${platformName} 삭제` }).click();
    await page.getByRole('dialog').getByRole('button', { name: '삭제' }).click();
    await toast(page, '카테고리가 있는 플랫폼은 삭제할 수 없습니다. 카테고리를 먼저 삭제하거나 다른 플랫폼으로 옮겨 주세요.');
    for (const name of [`첫 상품 ${tag}`, `둘째 상품 ${tag}`]) {
      await page.getByRole('button', { name: `${name} 삭제` }).click();
      await page.getByRole('dialog').getByRole('button', { name: '삭제' }).click();
      await toast(page, '상품을 삭제했습니다.');
    }
    await page.getByRole('button', { name: `좋아요 ${tag} 삭제` }).click();
    await page.getByRole('dialog').getByRole('button', { name: '삭제' }).click();
    await toast(page, '카테고리를 삭제했습니다.');
    await page.getByRole('button', { name: `${platformName} 삭제` }).click();
    await page.getByRole('dialog').getByRole('button', { name: '삭제' }).click();
    await toast(page, '플랫폼을 삭제했습니다.');
    await page.getByTestId(`platform-${freePlatformId}`).waitFor({ state: 'detached' });
    expect(ids(await list<Row>('/admin/platforms'))).toEqual(before.filter((id) => id !== freePlatformId));
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a product\'s provider mapping', () => {
  const panel = new PanelProvider(`panel-key-${uniqueId('k')}`);
  const providerName = `연결 패널 ${tag}`;
  let productId: number;
  beforeAll(async () => {
    await panel.start();
    const token = await asAdmin();
    const provider = await api<{ id: number }>('POST', '/admin/fulfillment/providers', { token, body: { name: providerName, url: panel.url, key: panel.key, currency: 'KRW', wonDeciPerUnit: 10, lowBalanceThreshold: '0' } });
    if (provider.status !== 201) throw new Error(`provider answered ${provider.status} ${JSON.stringify(provider.body)}`);
    const imported = await api('POST', `/admin/fulfillment/providers/${provider.body.id}/import`, { token });
    if (imported.status !== 200) throw new Error(`import answered ${imported.status} ${JSON.stringify(imported.body)}`);
    // A product of its own in the first category (the one the screen opens on).
    const made = await api<{ id: number }>('POST', '/admin/services', { token, body: { text: `연결 상품 ${tag}`, categoryId: 1, min: 10, max: 1000, point: '5' } });
    if (made.status !== 201) throw new Error(`product answered ${made.status} ${JSON.stringify(made.body)}`);
    productId = made.body.id;
  });
  afterAll(() => panel.stop());

  it('an admin maps a product to a provider service with a markup and sees provider, service, rule and cost on the product', async () => {
    const { page, context, errors } = await openScreen('catalogue');
    await page.getByRole('button', { name: `연결 상품 ${tag} 공급처 연결` }).click();
    const mapping = page.getByRole('form', { name: `상품 연결 · 연결 상품 ${tag}` });
    await mapping.getByLabel('공급처', { exact: true }).selectOption({ label: providerName });
    await mapping.getByLabel('공급처 서비스').selectOption('502');
    await mapping.getByLabel('마진율(%)').fill('20');
    await mapping.getByRole('button', { name: '연결 저장' }).click();
    await toast(page, '상품 연결을 저장했습니다.');
    const summary = page.getByTestId(`product-mapping-${productId}`);
    await expect.poll(() => summary.textContent()).toContain(`${providerName} #502`);
    expect(await summary.textContent()).toContain('원가 + 20%');
    expect(await summary.textContent()).toMatch(/원가 [\d,.]+원/);
    // Fulfillment sets the product's limits from the provider's service.
    await eventually(async () => (await list<Row & { min: number; max: number }>('/admin/services')).find((p) => p.id === productId), (p) => p?.min === 20 && p.max === 2000, 20_000, 'limits from the mapping');
    await expect.poll(() => page.getByTestId(`product-${productId}`).textContent()).toContain('20~2,000');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('notices, FAQ and register-where options', () => {
  it('an admin adds a top notice, an FAQ entry and a registration path that members see, reorders and deletes them', async () => {
    const { page, context, errors } = await openScreen('content');
    const notice = `점검 안내 ${tag}`;
    await page.getByTestId('notice').getByRole('button', { name: '공지 추가' }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: '저장하기' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('공지 내용을 입력해 주세요.');
    await dialog.getByLabel('공지 내용').fill(notice);
    await dialog.getByRole('switch', { name: '상단 고정 (강조 표시)' }).click();
    await dialog.getByRole('button', { name: '저장하기' }).click();
    await toast(page, '공지를 추가했습니다.');
    await eventually(async () => (await api<Array<{ content: string; isTop: boolean }>>('GET', '/service/notices')).body.find((n) => n.content === notice), (n) => n?.isTop === true, 10_000, 'top notice');

    await page.getByTestId('faq').getByRole('button', { name: '질문 추가' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByLabel('질문', { exact: true }).fill(`환불은 언제 되나요? ${tag}`);
    await dialog.getByLabel('답변').fill('결제 후 48시간 안에 포인트를 쓰지 않았다면 환불됩니다.');
    await dialog.getByRole('button', { name: '저장하기' }).click();
    await toast(page, '질문을 추가했습니다.');
    const faqs = await list<Row & { title: string }>('/admin/faqs');
    const faqId = faqs.at(-1)!.id;
    expect(faqs.at(-1)!.title).toBe(`환불은 언제 되나요? ${tag}`);
    await page.getByRole('button', { name: `질문 #${faqId} 위로` }).click();
    await toast(page, '순서를 바꿨습니다.');
    const reordered = ids(await list<Row>('/admin/faqs'));
    expect(reordered.at(-2)).toBe(faqId);
    expect(ids((await api<Row[]>('GET', '/service/qnas')).body)).toEqual(reordered);

    const path = `카페 홍보 ${tag}`;
    await page.getByTestId('register-where').getByRole('button', { name: '항목 추가' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByLabel('항목 이름').fill(path);
    await dialog.getByRole('button', { name: '저장하기' }).click();
    await toast(page, '가입 경로를 추가했습니다.');
    await eventually(async () => (await api<Row[]>('GET', '/service/register-where')).body.map((r) => r.text), (texts) => texts.includes(path), 10_000, 'register-where option');

    for (const [name, done] of [
      [`${path} 삭제`, '가입 경로를 삭제했습니다.'],
      [`질문 #${faqId} 삭제`, '질문을 삭제했습니다.'],
    ] as const) {
      await page.getByRole('button', { name }).click();
      await page.getByRole('dialog').getByRole('button', { name: '삭제' }).click();
      await toast(page, done);
    }
    const noticeId = (await list<Row & { content: string }>('/admin/notices')).find((n) => n.content === notice)!.id;
    await page.getByRole('button', { name: `공지 #${noticeId} 삭제` }).click();
    await page.getByRole('dialog').getByRole('button', { name: '삭제' }).click();
    await toast(page, '공지를 삭제했습니다.');
    expect((await api<Array<{ content: string }>>('GET', '/service/notices')).body.map((n) => n.content)).not.toContain(notice);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('site settings', () => {
  let company: string;
  beforeAll(async () => {
    const answer = await api<{ items: Array<{ key: string; value: string }> }>('GET', '/admin/settings', { token: await asAdmin() });
    company = answer.body.items.find((i) => i.key === 'FOOTER_COMPANY')?.value ?? '';
  });
  afterAll(async () => {
    await setSetting('FOOTER_COMPANY', company);
  });

  it('an admin changes the company name and members see it; malformed values are refused in Korean', async () => {
    const { page, context, errors } = await openScreen('settings');
    const colours = page.getByRole('form', { name: '색상' });
    await colours.getByLabel('대표 색상', { exact: true }).fill('blue');
    await colours.getByRole('button', { name: '저장하기' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('색상 설정은 #RRGGBB 형식으로 입력해 주세요. (MAIN_COLOR)');
    await colours.getByRole('button', { name: '되돌리기' }).click();

    const referral = page.getByRole('form', { name: '추천인' });
    await referral.getByLabel('추천 적립률 (%)').fill('70');
    await referral.getByRole('button', { name: '저장하기' }).click();
    await expect.poll(() => referral.locator('xpath=..').getByRole('alert').textContent()).toBe('추천 적립률은 0~50 사이의 정수(%)로 입력해 주세요. (REFERRAL_RATE_PERCENT)');

    const name = `테스트상사 ${tag}`;
    const footer = page.getByRole('form', { name: '회사 정보 (하단 표시)' });
    await footer.getByLabel('회사명').fill(name);
    await footer.getByRole('button', { name: '저장하기' }).click();
    await toast(page, '설정 1개를 저장했습니다.');
    // Saved values come back from the server (the form is re-read after a save).
    await expect.poll(() => page.getByRole('form', { name: '회사 정보 (하단 표시)' }).getByLabel('회사명').inputValue()).toBe(name);

    const member = await newMember();
    const visit = await open({ token: await login(member.id, member.password) });
    await visit.page.goto('/order');
    await expect.poll(() => visit.page.locator('footer').textContent()).toContain(name);
    await visit.context.close();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows flags as switches, colours with a preview, the rate as a number', async () => {
    const { page, context } = await openScreen('settings');
    const switches = page.getByRole('switch');
    await expect.poll(() => switches.count()).toBe(11);
    const colours = page.getByRole('form', { name: '색상' });
    await colours.getByLabel('대표 색상', { exact: true }).fill('#0A7C3B');
    expect(await colours.getByTestId('colour-preview').first().evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(10, 124, 59)');
    expect(await page.getByLabel('추천 적립률 (%)').getAttribute('type')).toBe('number');
    await context.close();
  });

  it('staff see none of the catalogue and site screens', async () => {
    const staff = await newMember();
    expect((await api('PUT', `/admin/members/${staff.userId}/role`, { token: await asAdmin(), body: { role: 'staff' } })).status).toBe(200);
    const token = await login(staff.id, staff.password);
    const { page, context } = await open({ token });
    await page.goto('/admin/settings');
    await heading(page, '대시보드');
    const nav = page.getByRole('navigation', { name: '콘솔 메뉴' });
    for (const label of ['상품 관리', '공지·FAQ', '사이트 설정']) expect(await nav.getByRole('link', { name: label }).count()).toBe(0);
    expect((await api('PUT', '/admin/settings/FOOTER_COMPANY', { token, body: { value: 'x' } })).status).toBe(403);
    expect((await api('POST', '/admin/notices', { token, body: { content: 'x' } })).status).toBe(403);
    await context.close();
  });
});

describe('screenshots', () => {
  it.each([
    ['light', '1440', desktop],
    ['dark', '1440', desktop],
    ['light', '1024', laptop],
    ['dark', '1024', laptop],
  ] as const)('catalogue, content and settings, %s theme at %s px', async (theme, width, viewport) => {
    const catalogue = await openScreen('catalogue', theme, viewport);
    await catalogue.page.getByTestId('product').locator('tbody tr').first().waitFor();
    await shot(catalogue.page, `admin-catalogue-${theme}-${width}`);
    await catalogue.page.getByTestId('product').getByRole('button', { name: '수정' }).first().click();
    await catalogue.page.getByRole('dialog').waitFor();
    await shot(catalogue.page, `admin-catalogue-dialog-${theme}-${width}`, { fullPage: false });
    await catalogue.context.close();
    const content = await openScreen('content', theme, viewport);
    await content.page.getByTestId('faq').locator('tbody tr').first().waitFor();
    await shot(content.page, `admin-content-${theme}-${width}`);
    await content.context.close();
    const settings = await openScreen('settings', theme, viewport);
    await settings.page.getByRole('form', { name: '색상' }).waitFor();
    await shot(settings.page, `admin-settings-${theme}-${width}`);
    await settings.context.close();
  });
});
