import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpAt } from '@smm/testkit';
import { api, asAdmin, eventually, setSetting, uniqueId } from './support/api.ts';
import type { Page } from 'playwright-core';
import { type Theme, type Viewport, disconnect, heading, open, phone, shot, toasts } from './support/browser.ts';

/**
 * Issue 41 in Chromium: an admin adds a staff member with two menus in the console, the staff
 * member enrols a second factor at their first sign-in (a real TOTP code computed here, as a phone
 * would), sees only their menus, signs in again with the next code, and is disabled by the admin —
 * their token stops working at once. Screenshots at 1280 and 390 px in both themes
 * (artifacts/admin-staff-*.png, login-2fa-*.png).
 */
const wide: Viewport = { width: 1280, height: 800 };
let admin: string;
const staff = { loginId: uniqueId('st'), password: '', secret: '', token: '' };

beforeAll(async () => {
  admin = await asAdmin();
});
afterAll(async () => {
  await setSetting('ENABLE_OPERATOR_TWO_FACTOR', 'false');
  // Later files sign the admin in with a password only: wait until auth has the setting off.
  const probe = await api<{ initialPassword: string; loginId: string }>('POST', '/admin/operators', { token: admin, body: { loginId: uniqueId('probe'), role: 'staff', areas: ['orders'] } });
  await eventually(
    () => api<{ accessToken?: string }>('POST', '/auth/login', { body: { id: probe.body.loginId, password: probe.body.initialPassword } }),
    (res) => typeof res.body.accessToken === 'string',
    20_000,
    'two-factor setting off in auth',
  );
  await disconnect();
});

async function signIn(page: Page, id: string, password: string) {
  await page.goto('/login');
  await heading(page, '로그인');
  await page.getByLabel('아이디', { exact: true }).fill(id);
  await page.getByLabel('비밀번호', { exact: true }).fill(password);
  await page.locator('form').getByRole('button', { name: '로그인', exact: true }).click();
}

describe('staff management and two-factor sign-in', () => {
  it('an admin adds a staff member with two menus; the temporary password is shown once', async () => {
    const { page, context, errors } = await open({ token: admin, viewport: wide });
    await page.goto('/admin/staff');
    await heading(page, '운영자 관리');
    await page.getByRole('button', { name: '운영자 추가' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: '추가', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('아이디를 입력해 주세요.');
    await dialog.getByLabel('아이디', { exact: true }).fill(staff.loginId);
    await dialog.getByRole('button', { name: '추가', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('스태프가 쓸 메뉴를 하나 이상 선택해 주세요.');
    await dialog.getByLabel('충전 요청').check();
    await dialog.getByLabel('회원', { exact: true }).check();
    await dialog.getByRole('button', { name: '추가', exact: true }).click();
    staff.password = (await page.getByTestId('initial-password').textContent()) ?? '';
    expect(staff.password).toMatch(/^\S{16}$/);
    await page.getByRole('button', { name: '확인', exact: true }).click();
    const row = page.getByTestId(`operator-${staff.loginId}`);
    await expect.poll(() => row.textContent()).toContain('충전 요청, 회원');
    expect(await row.textContent()).toContain('미설정');
    expect(await page.getByTestId('two-factor-policy').textContent()).toContain('선택');
    // The admin's own row offers no actions on itself.
    expect(await page.getByTestId('operator-admin').textContent()).toContain('본인');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('with 2FA required, the staff member enrols at first sign-in with a real code, keeps recovery codes and sees only their menus', async () => {
    await setSetting('ENABLE_OPERATOR_TWO_FACTOR', 'true');
    await eventually(
      () => api<{ twoFactor?: string }>('POST', '/auth/login', { body: { id: staff.loginId, password: staff.password } }),
      (res) => res.body.twoFactor === 'enrol',
      20_000,
      'two-factor required in auth',
    );
    const { page, context, errors } = await open({ viewport: phone, theme: 'dark', mobile: true });
    await signIn(page, staff.loginId, staff.password);
    await heading(page, '2단계 인증 설정');
    await shot(page, 'login-2fa-enrol-390-dark');
    await page.getByRole('button', { name: '설정 키 받기' }).click();
    const secretBox = page.getByTestId('totp-secret');
    await secretBox.waitFor();
    staff.secret = (await secretBox.getAttribute('data-secret')) ?? '';
    expect(staff.secret).toMatch(/^[A-Z2-7]{32}$/);
    await shot(page, 'login-2fa-key-390-dark');
    await page.getByLabel('인증 코드').fill('000000' === totpAt(staff.secret, Date.now()) ? '111111' : '000000');
    await page.getByRole('button', { name: '설정 완료' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('인증 코드가 올바르지 않습니다');
    await page.getByLabel('인증 코드').fill(totpAt(staff.secret, Date.now()));
    await page.getByRole('button', { name: '설정 완료' }).click();
    await heading(page, '복구 코드를 보관해 주세요');
    expect(await page.getByTestId('recovery-codes').locator('li').count()).toBe(10);
    await shot(page, 'login-2fa-recovery-390-dark');
    await page.getByRole('button', { name: '보관했습니다 · 계속하기' }).click();
    await page.waitForURL(/\/admin\//);
    staff.token = (await page.evaluate(() => window.localStorage.getItem('smm.token'))) ?? '';
    expect(staff.token).not.toBe('');
    // Only the dashboard and the two menus given; another area is refused by the server too.
    const nav = page.getByRole('navigation', { name: '콘솔 메뉴' });
    await expect.poll(() => nav.getByRole('link').allTextContents()).toEqual(['대시보드', '충전 요청', '회원', '내보내기', '회원 화면', '로그아웃']);
    expect(await api('GET', '/admin/orders/search', { token: staff.token })).toMatchObject({ status: 403, body: { code: 'AREA_FORBIDDEN' } });
    expect((await api('GET', '/admin/top-ups', { token: staff.token })).status).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('signs in again with the next code from the app; the same code a second time is refused', async () => {
    const next = totpAt(staff.secret, Date.now() + 30_000);
    const first = await open({ viewport: wide });
    await signIn(first.page, staff.loginId, staff.password);
    await heading(first.page, '2단계 인증');
    await first.page.getByLabel('인증 코드').fill(next);
    await first.page.getByRole('button', { name: '확인', exact: true }).click();
    await first.page.waitForURL(/\/admin\//);
    await expect.poll(() => toasts(first.page).allTextContents()).toContain('로그인되었습니다.');
    expect(first.errors).toEqual([]);
    await first.context.close();

    const again = await open({ viewport: wide });
    await signIn(again.page, staff.loginId, staff.password);
    await heading(again.page, '2단계 인증');
    await again.page.getByLabel('인증 코드').fill(next);
    await again.page.getByRole('button', { name: '확인', exact: true }).click();
    await expect.poll(() => again.page.getByRole('alert').textContent()).toContain('이미 사용한 인증 코드');
    expect(again.errors).toEqual([]);
    await again.context.close();
  });

  it('the admin disables the staff member in the console: their token is refused at once', async () => {
    const { page, context, errors } = await open({ token: admin, viewport: wide });
    await page.goto('/admin/staff');
    await heading(page, '운영자 관리');
    const row = page.getByTestId(`operator-${staff.loginId}`);
    await expect.poll(() => row.textContent()).toContain('설정됨');
    await row.getByRole('button', { name: '사용 중지' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '사용 중지' }).click();
    // The row's button turns into 사용 재개 once the server disabled the account.
    await expect.poll(() => row.getByRole('button', { name: '사용 재개' }).count()).toBe(1);
    expect(await api('GET', '/admin/top-ups', { token: staff.token })).toMatchObject({ status: 401 });
    expect(await api('POST', '/auth/login', { body: { id: staff.loginId, password: staff.password } })).toMatchObject({ status: 403, body: { code: 'OPERATOR_DISABLED' } });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('screenshots', () => {
  // Still required here (afterAll turns it off): one operator with a second factor, one without.
  const enrolled = { loginId: '', password: '' };
  const fresh = { loginId: '', password: '' };
  beforeAll(async () => {
    for (const who of [enrolled, fresh]) {
      const made = await api<{ loginId: string; initialPassword: string }>('POST', '/admin/operators', { token: admin, body: { loginId: uniqueId('shot'), role: 'staff', areas: ['orders'] } });
      Object.assign(who, { loginId: made.body.loginId, password: made.body.initialPassword });
    }
    const step = await api<{ challenge: string }>('POST', '/auth/login', { body: { id: enrolled.loginId, password: enrolled.password } });
    const offered = await api<{ secret: string }>('POST', '/auth/login/two-factor/enrolment', { body: { challenge: step.body.challenge } });
    const done = await api('POST', '/auth/login/two-factor/enrolment/confirm', { body: { challenge: step.body.challenge, code: totpAt(offered.body.secret, Date.now()) } });
    expect(done.status).toBe(200);
  });

  for (const [viewport, width] of [
    [wide, 1280],
    [phone, 390],
  ] as const) {
    for (const theme of ['light', 'dark'] as Theme[]) {
      it(`the staff screen and the sign-in steps at ${width} px, ${theme}`, async () => {
        const { page, context, errors } = await open({ token: admin, viewport, theme, mobile: width === 390 });
        await page.goto('/admin/staff');
        await heading(page, '운영자 관리');
        await page.getByTestId(`operator-${staff.loginId}`).waitFor();
        await shot(page, `admin-staff-${width}-${theme}`);
        await page.getByRole('button', { name: '운영자 추가' }).click();
        await page.getByRole('dialog').waitFor();
        await shot(page, `admin-staff-add-${width}-${theme}`, { fullPage: false });
        expect(errors).toEqual([]);
        await context.close();

        const signIns = await open({ viewport, theme, mobile: width === 390 });
        await signIn(signIns.page, enrolled.loginId, enrolled.password);
        await heading(signIns.page, '2단계 인증');
        await shot(signIns.page, `login-2fa-verify-${width}-${theme}`, { fullPage: false });
        await signIns.page.getByRole('button', { name: '처음부터 다시 로그인' }).click();
        await signIn(signIns.page, fresh.loginId, fresh.password);
        await heading(signIns.page, '2단계 인증 설정');
        await shot(signIns.page, `login-2fa-enrol-${width}-${theme}`, { fullPage: false });
        expect(signIns.errors).toEqual([]);
        await signIns.context.close();
      });
    }
  }
});
