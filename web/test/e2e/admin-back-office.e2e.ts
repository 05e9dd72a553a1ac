import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatWon } from '../../src/lib/contracts.ts';
import { type Member, api, asAdmin, fund, login, newMember, placeOrder, serviceNamed } from './support/api.ts';
import { type Theme, type Viewport, disconnect, heading, open, phone, shot } from './support/browser.ts';

/**
 * The back office of issue 41 in Chromium, by an admin and by a staff account: the profit screen
 * (chart and table, the figures the BFF computed), exports downloaded from the screen, the member
 * page's totals and the ranked member list, and the dashboard's 처리할 일. Screenshots at 1280 and
 * 390 px in both themes (artifacts/admin-profit-*.png, admin-exports-*.png, …).
 */
const wide: Viewport = { width: 1280, height: 900 };
type Profit = { rows: Array<{ key: string; revenueDeci: number }>; totals: { revenueDeci: number; costDeci: number; profitDeci: number } };
let buyer: Member;
let staffToken: string;
const kstToday = () => new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);

beforeAll(async () => {
  buyer = await newMember();
  await fund(buyer, 10_000);
  const product = await serviceNamed('인스타그램 한국인 좋아요');
  await placeOrder(buyer, { serviceId: product.id, link: 'https://instagram.com/p/back-office', amount: product.min });
  const staff = await newMember();
  expect((await api('PUT', `/admin/members/${staff.userId}/role`, { token: await asAdmin(), body: { role: 'staff' } })).status).toBe(200);
  staffToken = await login(staff.id, staff.password);
});
afterAll(disconnect);

describe('back office', () => {
  it('profit: the admin reads revenue, cost and profit as a chart and a table, by day and by member', async () => {
    const today = kstToday();
    for (const [viewport, theme] of [
      [wide, 'light'],
      [wide, 'dark'],
      [phone, 'light'],
      [phone, 'dark'],
    ] as Array<[Viewport, Theme]>) {
      const { page, context, errors } = await open({ token: await asAdmin(), theme, viewport });
      await page.goto('/admin/profit');
      await heading(page, '손익');
      await page.getByTestId('profit-chart').waitFor();
      const report = (await api<Profit>('GET', `/admin/reports/profit?by=day`, { token: await asAdmin() })).body;
      expect(report.totals.revenueDeci).toBeGreaterThan(0);
      await expect.poll(() => page.getByTestId('profit-totals').textContent()).toContain(formatWon(report.totals.revenueDeci));
      expect(await page.getByTestId('profit-row').count()).toBe(30);
      expect(await page.getByTestId('profit-chart').locator('desc').textContent()).toContain(`${today} 매출 ${formatWon(report.rows.at(-1)!.revenueDeci)}`);
      await shot(page, `admin-profit-${viewport.width}-${theme}`);
      if (viewport === wide && theme === 'light') {
        await page.getByLabel('집계 기준').selectOption('member');
        await page.getByRole('button', { name: '조회' }).click();
        await expect.poll(() => page.getByRole('table', { name: '손익' }).textContent()).toContain(buyer.id);
        await shot(page, 'admin-profit-by-member-1280-light');
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('exports: the admin downloads orders from the screen; staff see no member or audit export', async () => {
    const admin = await open({ token: await asAdmin(), viewport: wide });
    await admin.page.goto('/admin/exports');
    await heading(admin.page, '내보내기');
    expect(await admin.page.getByLabel('종류').locator('option').allTextContents()).toEqual(['주문', '충전 요청', '입금', '포인트 원장', '회원', '감사 기록']);
    await admin.page.getByLabel('회원 아이디').fill(buyer.id);
    const [download] = await Promise.all([admin.page.waitForEvent('download'), admin.page.getByRole('button', { name: 'CSV 내려받기' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^주문_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
    const text = (await readAll(await download.createReadStream())).toString('utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text).toContain('인스타그램 한국인 좋아요');
    expect(text).toMatch(new RegExp(`${buyer.id}`));
    await expect.poll(() => admin.page.getByTestId('export-result').textContent()).toContain('내려받았습니다');
    await shot(admin.page, 'admin-exports-1280-light');
    expect(admin.errors).toEqual([]);
    await admin.context.close();

    for (const [viewport, theme] of [
      [wide, 'dark'],
      [phone, 'light'],
      [phone, 'dark'],
    ] as Array<[Viewport, Theme]>) {
      const staff = await open({ token: staffToken, theme, viewport });
      await staff.page.goto('/admin/exports');
      await heading(staff.page, '내보내기');
      expect(await staff.page.getByLabel('종류').locator('option').allTextContents()).toEqual(['주문', '충전 요청', '입금', '포인트 원장']);
      // Profit is the owner's: not in the staff console's navigation.
      expect(await staff.page.getByRole('link', { name: '손익' }).count()).toBe(0);
      await shot(staff.page, `admin-exports-staff-${viewport.width}-${theme}`);
      expect(staff.errors).toEqual([]);
      await staff.context.close();
    }
  });

  it('members: totals on the member page and the ranked list, sorted by a column heading', async () => {
    for (const [viewport, theme] of [
      [wide, 'light'],
      [phone, 'dark'],
    ] as Array<[Viewport, Theme]>) {
      const { page, context, errors } = await open({ token: staffToken, theme, viewport });
      await page.goto(`/admin/members/${buyer.userId}`);
      // The member page gathers five services' answers, then the totals their own: slow on a loaded machine.
      await page.getByTestId('member-totals').waitFor({ timeout: 45_000 });
      await expect.poll(() => page.getByTestId('member-totals').textContent()).toContain('주문 수1결제 합계');
      await shot(page, `admin-member-totals-${viewport.width}-${theme}`);
      await page.goto('/admin/members');
      const ranking = page.getByTestId('member-ranking');
      await expect.poll(() => ranking.textContent()).toContain('원');
      await ranking.getByRole('button', { name: /주문 수/ }).click();
      await expect.poll(() => ranking.getByRole('button', { name: /주문 수/ }).getAttribute('aria-pressed')).toBe('true');
      await shot(page, `admin-member-ranking-${viewport.width}-${theme}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('dashboard: 처리할 일 counts and links what needs a person; provider lines only for the admin', async () => {
    // A transfer nobody asked for: a deposit waiting for an operator.
    expect((await api('POST', '/admin/deposits', { token: await asAdmin(), body: { depositorName: '모르는 입금자', amount: 7_000 } })).status).toBe(201);
    for (const [token, who, viewport, theme] of [
      [await asAdmin(), 'admin', wide, 'light'],
      [staffToken, 'staff', phone, 'dark'],
    ] as Array<[string, string, Viewport, Theme]>) {
      const { page, context, errors } = await open({ token, theme, viewport });
      await page.goto('/admin/dashboard');
      await heading(page, '대시보드');
      await page.getByTestId('todo-deposits-unmatched').waitFor();
      expect(await page.getByTestId('todo-deposits-unmatched').textContent()).toMatch(/연결되지 않은 입금[1-9]\d*건/);
      expect(await page.getByTestId('todo').textContent()).toContain('공급처 전송 대기');
      expect(await page.getByTestId('todo').textContent()).toContain('정합성 점검 불일치');
      expect(await page.getByTestId('todo-providers-low').count()).toBe(who === 'admin' ? 1 : 0);
      await shot(page, `admin-dashboard-todo-${who}-${viewport.width}-${theme}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
