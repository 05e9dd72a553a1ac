import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, api, asAdmin, balanceDeci, eventually, login, newMember, stack } from './support/api.ts';
import { type Theme, type Viewport, desktop, disconnect, heading, open, shot, toasts } from './support/browser.ts';

/**
 * The operator console (issue 12): who gets in, the top-up queue worked by a staff operator, and
 * screenshots at 1440 and 1024 px in both themes (web/test/e2e/artifacts/admin-*.png).
 */
const laptop: Viewport = { width: 1024, height: 768 };

let member: Member;
let staffToken: string;
type Row = { id: number; status: number; rejectReason: string | null; receiptIssuedAt: string | null };

async function requestTopUp(body: Record<string, unknown>): Promise<number> {
  const res = await api<{ id: number }>('POST', '/service/point', { token: member.token, body });
  if (res.status !== 201) throw new Error(`top-up answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}
const topUp = async (id: number) => (await api<{ items: Row[] }>('GET', `/admin/top-ups?loginId=${member.id}&pageSize=100`, { token: await asAdmin() })).body.items.find((t) => t.id === id);

beforeAll(async () => {
  member = await newMember();
  const staff = await newMember();
  const made = await api('PUT', `/admin/members/${staff.userId}/role`, { token: await asAdmin(), body: { role: 'staff' } });
  if (made.status !== 200) throw new Error(`role answered ${made.status} ${JSON.stringify(made.body)}`);
  staffToken = await login(staff.id, staff.password);
});

afterAll(disconnect);

/** The queue filtered to the test member (other files' members share the devstack). */
async function openQueue(options: { token: string; theme?: Theme; viewport?: Viewport }) {
  const visit = await open({ token: options.token, theme: options.theme ?? 'light', viewport: options.viewport ?? desktop });
  await visit.page.goto('/admin/top-ups');
  await heading(visit.page, '충전 요청');
  await visit.page.getByLabel('회원 아이디').fill(member.id);
  await visit.page.getByRole('button', { name: '검색', exact: true }).click();
  return visit;
}
const row = (page: Page, id: number) => page.getByTestId(`top-up-${id}`);

describe('who gets into the console', () => {
  it('an operator who logs in lands on the console, with the side navigation and the role shown', async () => {
    const { page, context, errors } = await open();
    await page.goto('/login');
    await page.getByLabel('아이디', { exact: true }).fill('admin');
    await page.getByLabel('비밀번호', { exact: true }).fill(stack().adminPassword);
    await page.getByRole('button', { name: '로그인', exact: true }).click();
    await heading(page, '대시보드');
    expect(new URL(page.url()).pathname).toBe('/admin/dashboard');
    expect(await page.getByTestId('operator').textContent()).toBe('admin관리자');
    expect(await page.getByRole('navigation', { name: '콘솔 메뉴' }).getByRole('link', { name: '대시보드' }).getAttribute('aria-current')).toBe('page');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a member who opens /admin gets the 403 screen and stays there (no redirect loop)', async () => {
    const { page, context } = await open({ token: member.token });
    await page.goto('/admin/top-ups');
    await heading(page, '접근 권한이 없습니다');
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/admin/top-ups');
    await page.getByRole('link', { name: '주문하기로 돌아가기' }).click();
    await heading(page, '주문하기');
    expect(await page.getByRole('navigation', { name: '주 메뉴', exact: true }).getByRole('link', { name: '운영 콘솔' }).count()).toBe(0);
    await context.close();
  });

  it('a visitor who opens /admin is sent to the login form', async () => {
    const { page, context } = await open();
    await page.goto('/admin');
    await heading(page, '로그인');
    await context.close();
  });

  it('an operator sees the console in the member navigation', async () => {
    const { page, context } = await open({ token: staffToken });
    await page.goto('/order');
    await page.getByRole('navigation', { name: '주 메뉴', exact: true }).getByRole('link', { name: '운영 콘솔' }).click();
    await heading(page, '대시보드');
    expect(await page.getByTestId('operator').textContent()).toContain('스태프');
    await context.close();
  });
});

describe('the top-up queue, worked by staff', () => {
  it('shows login id, depositor, the amount to transfer and the time left; approving credits the member once', async () => {
    const id = await requestTopUp({ name: '김승인', point: 20_000, feeType: 'cash', feeValue: { phone: '01012345678' } });
    const before = await balanceDeci(member.token);
    const { page, context, errors } = await openQueue({ token: staffToken });
    const r = row(page, id);
    await r.waitFor();
    const text = await r.textContent();
    expect(text).toContain(member.id);
    expect(text).toContain('김승인');
    expect(text).toContain('20,000원');
    expect(text).toContain('충전 20,000원');
    expect(text).toMatch(/2시간 5\d분 남음/);
    await r.getByRole('button', { name: '승인', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: '승인하기' }).click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('충전 요청을 승인했습니다.');
    await r.waitFor({ state: 'detached' });
    await eventually(() => balanceDeci(member.token), (deci) => deci === before + 200_000, 20_000, 'balance after approval');
    expect((await topUp(id))?.status).toBe(1);

    // The receipt: shown in the details and marked issued once.
    await page.getByRole('group', { name: '처리 상태' }).getByRole('button', { name: '충전 완료' }).click();
    await r.getByText('발행 전').waitFor();
    await r.getByRole('button', { name: '상세' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('01012345678');
    await dialog.getByRole('button', { name: '발행 완료로 표시' }).click();
    await r.getByText('발행 완료').waitFor();
    expect((await topUp(id))?.receiptIssuedAt).toEqual(expect.any(String));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a rejection needs a reason; with one the request fails and the balance stays', async () => {
    const id = await requestTopUp({ name: '박거절', point: 5_000, feeType: 'none', feeValue: null });
    const before = await balanceDeci(member.token);
    const { page, context } = await openQueue({ token: staffToken });
    await row(page, id).getByRole('button', { name: '거절', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: '거절하기' }).click();
    expect(await dialog.getByRole('alert').textContent()).toBe('거절 사유를 입력해 주세요.');
    expect((await topUp(id))?.status).toBe(0);
    await dialog.getByLabel('거절 사유').fill('입금 내역 없음');
    await dialog.getByRole('button', { name: '거절하기' }).click();
    await row(page, id).waitFor({ state: 'detached' });
    expect(await topUp(id)).toMatchObject({ status: 2, rejectReason: '입금 내역 없음' });
    expect(await balanceDeci(member.token)).toBe(before);
    await context.close();
  });

  it('filters by payment type and exports the filtered list as CSV', async () => {
    const fee = await requestTopUp({
      name: '=이세금',
      point: 10_000,
      feeType: 'fee',
      feeValue: { company: '주식회사 예시', businessNumber: '123-45-67890', leader: '김대표', phone: '010-1234-5678', email: 'tax@example.com' },
    });
    const none = await requestTopUp({ name: '최없음', point: 5_000, feeType: 'none', feeValue: null });
    const { page, context } = await openQueue({ token: staffToken });
    await row(page, none).waitFor();
    await page.getByRole('group', { name: '영수증 종류' }).getByRole('button', { name: '세금계산서' }).click();
    await row(page, none).waitFor({ state: 'detached' });
    await row(page, fee).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV 내보내기' }).click()]);
    const saved = join(stack().artifactsDir, 'admin-top-ups.csv');
    await download.saveAs(saved);
    const csv = readFileSync(saved, 'utf8');
    expect(csv).toContain(`${fee},`);
    expect(csv).toContain(`,${member.id},'=이세금,10000,11000,세금계산서,`);
    expect(csv).not.toContain('최없음');
    await context.close();
  });
});

describe('screenshots', () => {
  it.each([
    ['light', '1440', desktop],
    ['dark', '1440', desktop],
    ['light', '1024', laptop],
    ['dark', '1024', laptop],
  ] as const)('top-up queue, %s theme at %s px', async (theme, width, viewport) => {
    const { page, context } = await openQueue({ token: staffToken, theme, viewport });
    await page.getByRole('group', { name: '처리 상태' }).getByRole('button', { name: '전체' }).click();
    await page.locator('tbody tr').first().waitFor();
    await shot(page, `admin-top-ups-${theme}-${width}`);
    await page.locator('tbody tr', { hasText: '세금계산서' }).first().getByRole('button', { name: '상세' }).click();
    await page.getByRole('dialog').waitFor();
    await shot(page, `admin-top-up-detail-${theme}-${width}`, { fullPage: false });
    await context.close();
  });

  it.each(['light', 'dark'] as const)('403 screen, %s theme', async (theme) => {
    const { page, context } = await open({ token: member.token, theme });
    await page.goto('/admin');
    await heading(page, '접근 권한이 없습니다');
    await shot(page, `admin-403-${theme}`, { fullPage: false });
    await context.close();
  });
});
