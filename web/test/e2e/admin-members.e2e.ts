import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, api, asAdmin, balanceDeci, eventually, fund, login, newMember, placeOrder, serviceNamed } from './support/api.ts';
import { type Theme, type Viewport, desktop, disconnect, heading, open, shot, toasts } from './support/browser.ts';

/** Members in the console (issue 12): search, a member's page, balance adjustments by admins only. */
const laptop: Viewport = { width: 1024, height: 768 };
let member: Member;
let staffToken: string;

beforeAll(async () => {
  member = await newMember();
  await fund(member, 20_000);
  const likes = await serviceNamed('인스타그램 한국인 좋아요');
  await placeOrder(member, { serviceId: likes.id, link: 'https://www.instagram.com/p/console-member', amount: 100 });
  const staff = await newMember();
  await api('PUT', `/admin/members/${staff.userId}/role`, { token: await asAdmin(), body: { role: 'staff' } });
  staffToken = await login(staff.id, staff.password);
});
afterAll(disconnect);

async function openMember(token: string, theme: Theme = 'light', viewport: Viewport = desktop) {
  const visit = await open({ token, theme, viewport });
  await visit.page.goto('/admin/members');
  await heading(visit.page, '회원');
  await visit.page.getByLabel('회원 검색').fill(member.id.toUpperCase());
  await visit.page.getByRole('button', { name: '검색', exact: true }).click();
  await visit.page.getByRole('table', { name: '회원', exact: true }).getByRole('link', { name: member.id, exact: true }).click();
  await heading(visit.page, `회원 ${member.id}`);
  return visit;
}

describe('members in the console', () => {
  it('an admin finds a member and sees balance, profile, ledger, top-ups and orders', async () => {
    const deci = await balanceDeci(member.token);
    const { page, context, errors } = await openMember(await asAdmin());
    // 20,000 won topped up, minus the order's charge.
    expect(deci).toBeLessThan(200_000);
    expect(await page.getByTestId('member-balance').textContent()).toBe(`${(deci / 10).toLocaleString('ko-KR')}원`);
    const text = await page.locator('main').textContent();
    expect(text).toContain(`${member.id}@example.com`);
    expect(text).toContain('발급 안 함');
    expect(await page.getByRole('table', { name: '포인트 내역' }).textContent()).toContain('충전');
    expect(await page.getByRole('table', { name: '충전 요청' }).textContent()).toContain('홍길동');
    expect(await page.getByRole('table', { name: '주문' }).textContent()).toContain('인스타그램 한국인 좋아요');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an admin adjusts the balance with a reason; without one, or below zero, nothing changes', async () => {
    const before = await balanceDeci(member.token);
    const { page, context } = await openMember(await asAdmin());
    const form = page.getByRole('form', { name: '포인트 조정' });
    await form.getByLabel('조정 금액(원, 차감은 음수)').fill('1234.5');
    await form.getByRole('button', { name: '조정하기' }).click();
    expect(await page.getByRole('alert').first().textContent()).toBe('조정 사유를 입력해 주세요.');
    await form.getByLabel('조정 금액(원, 차감은 음수)').fill('-999999');
    await form.getByLabel('조정 사유').fill('잘못된 회수');
    await form.getByRole('button', { name: '조정하기' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('보유 포인트보다 많이 차감할 수 없습니다.');
    expect(await balanceDeci(member.token)).toBe(before);
    await form.getByLabel('조정 금액(원, 차감은 음수)').fill('1234.5');
    await form.getByLabel('조정 사유').fill('이벤트 당첨 보상');
    await form.getByRole('button', { name: '조정하기' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('포인트를 조정했습니다.');
    await expect.poll(() => page.getByTestId('member-balance').textContent()).toBe(`${((before + 12_345) / 10).toLocaleString('ko-KR')}원`);
    expect(await page.getByRole('table', { name: '포인트 내역' }).textContent()).toContain('이벤트 당첨 보상');
    await eventually(() => balanceDeci(member.token), (deci) => deci === before + 12_345, 10_000, 'member balance');
    await context.close();
  });

  it('staff see the member page without the adjustment form, and the API refuses them', async () => {
    const { page, context } = await openMember(staffToken);
    expect(await page.getByRole('form', { name: '포인트 조정' }).count()).toBe(0);
    const refused = await api('POST', `/admin/members/${member.userId}/adjustments`, { token: staffToken, body: { amount: 100, reason: '보상' } });
    expect(refused.status).toBe(403);
    await context.close();
  });
});

describe('screenshots', () => {
  it.each([
    ['light', '1440', desktop],
    ['dark', '1440', desktop],
    ['light', '1024', laptop],
    ['dark', '1024', laptop],
  ] as const)('members, %s theme at %s px', async (theme, width, viewport) => {
    const { page, context } = await openMember(await asAdmin(), theme, viewport);
    await page.getByRole('table', { name: '주문' }).waitFor();
    await shot(page, `admin-member-${theme}-${width}`);
    await page.getByRole('link', { name: '회원 목록' }).click();
    await heading(page, '회원');
    await page.locator('tbody tr').first().waitFor();
    await shot(page, `admin-members-${theme}-${width}`, { fullPage: false });
    await context.close();
  });
});
