import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, api, asAdmin, balanceDeci, eventually, fund, login, newMember, serviceNamed } from './support/api.ts';
import { type Theme, type Viewport, desktop, disconnect, heading, open, phone, shot, toasts } from './support/browser.ts';

/**
 * Issue 40 in the browser: an admin gives a member rates on the member's console page (staff only
 * read them); the member sees their price on the order screen, the price list and the API page,
 * is charged exactly it, and a rate changed while the order screen is open is caught (409) and
 * the new price shown.
 */
const console1280: Viewport = { width: 1280, height: 900 };
let member: Member;
let staffToken: string;
let likes: Awaited<ReturnType<typeof serviceNamed>>;

beforeAll(async () => {
  member = await newMember();
  await fund(member, 10_000);
  likes = await serviceNamed('인스타그램 한국인 좋아요');
  const staff = await newMember();
  await api('PUT', `/admin/members/${staff.userId}/role`, { token: await asAdmin(), body: { role: 'staff' } });
  staffToken = await login(staff.id, staff.password);
});
afterAll(disconnect);

async function openMember(token: string, theme: Theme = 'light', viewport: Viewport = console1280) {
  const visit = await open({ token, theme, viewport });
  await visit.page.goto(`/admin/members/${member.userId}`);
  await heading(visit.page, `회원 ${member.id}`);
  await visit.page.getByTestId('member-rates').waitFor();
  return visit;
}
const rates = (page: Awaited<ReturnType<typeof openMember>>['page']) => page.getByRole('table', { name: '회원 단가 (할인·리셀러 단가)' });

describe('rates per member', () => {
  it("an admin sets a member's discount and a product price on the member page; staff only read them", async () => {
    const { page, context, errors } = await openMember(await asAdmin());
    await expect.poll(() => page.getByTestId('member-rates').textContent()).toContain('적용된 회원 단가가 없습니다');
    const form = page.getByRole('form', { name: '회원 단가 (할인·리셀러 단가)' });
    const value = form.getByLabel('할인율 (%)');
    await value.fill('120');
    await form.getByRole('button', { name: '저장' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('할인율은 1~99 사이의 정수(%)로 입력해 주세요.');
    await value.fill('10');
    await form.getByRole('button', { name: '저장' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('회원 단가를 저장했습니다.');
    await expect.poll(() => rates(page).textContent()).toContain('10% 할인');
    expect(await rates(page).textContent()).toContain('전체 상품');

    await form.getByLabel('적용 범위').selectOption(String(likes.id));
    await form.getByLabel('방식').selectOption('price');
    await form.getByLabel('지정 단가 (원)').fill('1.5');
    await expect.poll(() => page.getByTestId('rate-preview').textContent()).toBe('기본 2.5원 → 회원 1.5원');
    await form.getByRole('button', { name: '저장' }).click();
    await expect.poll(() => rates(page).locator('tbody tr').count()).toBe(2);
    expect(await rates(page).textContent()).toContain('개당 1.5원');
    expect(errors).toEqual([]);
    await context.close();

    const staff = await openMember(staffToken);
    await expect.poll(() => rates(staff.page).locator('tbody tr').count()).toBe(2);
    expect(await staff.page.getByRole('form', { name: '회원 단가 (할인·리셀러 단가)' }).count()).toBe(0);
    expect(await staff.page.getByTestId('member-rates').textContent()).toContain('회원 단가는 관리자만 정할 수 있습니다.');
    await staff.context.close();
  });

  it('the member sees their price on the order screen, price list and API page and is charged exactly it', async () => {
    const before = await balanceDeci(member.token);
    const { page, context, errors } = await open({ token: member.token, viewport: desktop });
    await page.goto('/order');
    await heading(page, '주문하기');
    await expect.poll(() => page.getByLabel('상품 선택').locator('option:checked').textContent()).toContain('1개당 1.5원 (회원 단가)');
    await expect.poll(() => page.getByTestId('member-price').textContent()).toContain('기본 2.5원');
    await page.getByLabel('주문 링크').fill('https://www.instagram.com/p/e2e-rates');
    await page.getByLabel('수량', { exact: true }).fill('100');
    await expect.poll(() => page.getByTestId('total-price').textContent()).toBe('150원');
    await page.getByRole('form', { name: '주문서' }).getByRole('button', { name: '주문하기' }).click();
    await page.waitForURL('**/order-history');
    await eventually(() => balanceDeci(member.token), (deci) => deci === before - 1_500, 10_000, 'balance after the order');

    await page.goto('/price-list');
    await heading(page, '가격표');
    const row = page.locator('tr', { hasText: '인스타그램 한국인 좋아요' }).first();
    await expect.poll(() => row.textContent()).toContain('회원 단가');
    expect(await row.textContent()).toContain('1.5원');
    await page.goto('/api');
    await heading(page, 'API 문서');
    await expect.poll(() => page.getByTestId('api-member-prices').textContent()).toContain('인스타그램 한국인 좋아요');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a rate removed while the order screen is open: the order is refused (409), nothing charged, the new price shown', async () => {
    const before = await balanceDeci(member.token);
    const { page, context } = await open({ token: member.token, viewport: desktop });
    await page.goto('/order');
    await heading(page, '주문하기');
    await expect.poll(() => page.getByTestId('member-price').textContent()).toContain('기본 2.5원');
    await page.getByLabel('주문 링크').fill('https://www.instagram.com/p/e2e-rates-409');
    await page.getByLabel('수량', { exact: true }).fill('100');
    await expect.poll(() => page.getByTestId('total-price').textContent()).toBe('150원');
    expect((await api('DELETE', `/admin/members/${member.userId}/rates/${likes.id}`, { token: await asAdmin() })).status).toBe(200);
    await page.getByRole('form', { name: '주문서' }).getByRole('button', { name: '주문하기' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContainEqual(expect.stringContaining('가격이 변경되었습니다.'));
    // 10 % on every product still holds: 2.5 → 2.25 → 2.3 won.
    await expect.poll(() => page.getByTestId('total-price').textContent()).toBe('230원');
    expect(await balanceDeci(member.token)).toBe(before);
    await context.close();
  });
});

// Concurrent (maxConcurrency 3), like screens.e2e.ts: the pages only read, so they may load side by side.
describe.concurrent('screenshots', () => {
  it.each([
    ['light', '1280', console1280],
    ['dark', '1280', console1280],
    ['light', '390', phone],
    ['dark', '390', phone],
  ] as const)("the rates section of a member's page, %s theme at %s px", async (theme, width, viewport) => {
    const { page, context } = await openMember(await asAdmin(), theme, viewport);
    await rates(page).locator('tbody tr').first().waitFor();
    await shot(page, `admin-member-rates-${theme}-${width}`);
    await context.close();
  });

  it.each([
    ['dark', '1280', console1280],
    ['light', '390', phone],
  ] as const)("the member's price on the order screen and the price list, %s theme at %s px", async (theme, width, viewport) => {
    const { page, context } = await open({ token: member.token, theme, viewport });
    await page.goto('/order');
    await heading(page, '주문하기');
    await page.getByTestId('member-price').waitFor();
    await shot(page, `order-member-price-${theme}-${width}`);
    await page.goto('/price-list');
    await heading(page, '가격표');
    await page.getByTestId('member-price-badge').first().waitFor();
    await shot(page, `price-list-member-price-${theme}-${width}`, { fullPage: false });
    await context.close();
  });
});
