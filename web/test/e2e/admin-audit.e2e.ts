import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, api, asAdmin, eventually, fund, login, newMember } from './support/api.ts';
import { type Theme, type Viewport, desktop, disconnect, heading, open, shot } from './support/browser.ts';

/** The audit log in the console (issue 12): every operator action with who, when, what, before → after. */
const laptop: Viewport = { width: 1024, height: 768 };
let member: Member;
let staff: Member;
let staffToken: string;

type Row = { action: string; target: { id: string } };

beforeAll(async () => {
  member = await newMember();
  // An approval (wallet), a role change (auth) and a balance adjustment (wallet) by the admin.
  await fund(member, 5_000);
  staff = await newMember();
  const admin = await asAdmin();
  await api('PUT', `/admin/members/${staff.userId}/role`, { token: admin, body: { role: 'staff' } });
  await api('POST', `/admin/members/${member.userId}/adjustments`, { token: admin, body: { amount: 1234.5, reason: '감사 화면 보상' } });
  staffToken = await login(staff.id, staff.password);
  await eventually(
    () => api<{ items: Row[] }>('GET', `/admin/audit?target=${member.userId}`, { token: admin }),
    (r) => r.body.items?.some((i) => i.action === 'wallet.balance.adjust') ?? false,
    30_000,
    'adjustment in the audit log',
  );
});
afterAll(disconnect);

async function openAudit(theme: Theme = 'light', viewport: Viewport = desktop) {
  const visit = await open({ token: await asAdmin(), theme, viewport });
  await visit.page.goto('/admin/audit');
  await heading(visit.page, '감사 기록');
  return visit;
}

describe('audit log in the console', () => {
  it('an admin filters by target and action and reads who, when and the change before → after in Korean', async () => {
    const { page, context, errors } = await openAudit();
    await page.getByLabel('대상 번호·아이디').fill(member.userId);
    await page.getByLabel('작업', { exact: true }).selectOption({ label: '잔액 조정' });
    await page.getByRole('button', { name: '검색', exact: true }).click();
    const table = page.getByRole('table', { name: '감사 기록' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    const row = table.locator('tbody tr').first();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('admin');
    expect(text).toContain('관리자');
    expect(text).toContain('잔액 조정');
    expect(text).toContain(member.id);
    // 5,000원 topped up, then 1,234.5원 added; the reason given with the change stands alone.
    expect(text).toContain('잔액5,000원→6,234.5원');
    expect(text).toContain('사유감사 화면 보상');
    // yyyy-mm-dd and hh:mm:ss in Korean time.
    expect(text).toMatch(/\d{4}-\d{2}-\d{2}\d{2}:\d{2}:\d{2}/);

    // The operator filter: by the admin's login id the role change shows; by the member's nothing.
    await page.getByLabel('대상 번호·아이디').fill(staff.userId);
    await page.getByLabel('작업', { exact: true }).selectOption({ label: '모든 작업' });
    await page.getByLabel('운영자 아이디').fill('ADMIN');
    await page.getByRole('button', { name: '검색', exact: true }).click();
    await expect.poll(() => table.textContent()).toContain('회원 권한 변경');
    expect(await table.textContent()).toMatch(/권한회원→스태프/);
    await page.getByLabel('운영자 아이디').fill(member.id);
    await page.getByRole('button', { name: '검색', exact: true }).click();
    await expect.poll(() => page.locator('main').textContent()).toContain('조건에 맞는 기록이 없습니다.');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('staff have no audit screen in the navigation and the API refuses them', async () => {
    const visit = await open({ token: staffToken });
    await visit.page.goto('/admin/top-ups');
    await visit.page.getByRole('navigation').first().waitFor();
    expect(await visit.page.getByRole('link', { name: '감사 기록' }).count()).toBe(0);
    expect((await api('GET', '/admin/audit', { token: staffToken })).status).toBe(403);
    await visit.context.close();
  });
});

describe('screenshots', () => {
  it.each([
    ['light', '1440', desktop],
    ['dark', '1440', desktop],
    ['light', '1024', laptop],
    ['dark', '1024', laptop],
  ] as const)('audit log, %s theme at %s px', async (theme, width, viewport) => {
    const { page, context } = await openAudit(theme, viewport);
    await page.getByRole('table', { name: '감사 기록' }).locator('tbody tr').first().waitFor();
    await shot(page, `admin-audit-${theme}-${width}`, { fullPage: false });
    await context.close();
  });
});
