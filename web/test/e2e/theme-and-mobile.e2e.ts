import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, fund, newMember } from './support/api.ts';
import { desktop, disconnect, heading, open, phone, shot } from './support/browser.ts';

afterAll(disconnect);

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('theme-dark'));

/** Relative luminance of an `rgb(…)` colour, 0 (black) to 1 (white). */
function luminance(colour: string): number {
  const [r = 0, g = 0, b = 0] = (colour.match(/[\d.]+/g) ?? []).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

describe('the theme toggle', () => {
  it('switches to dark and back, and the choice survives a reload', async () => {
    // The browser prefers light: the app starts light.
    const { page, context, errors } = await open({ viewport: desktop });
    try {
      await page.goto('/');
      await page.getByRole('button', { name: '다크 모드로 전환' }).waitFor();
      expect(await isDark(page)).toBe(false);
      expect(luminance(await background(page))).toBeGreaterThan(0.8);

      await page.getByRole('button', { name: '다크 모드로 전환' }).click();
      await expect.poll(() => isDark(page)).toBe(true);
      expect(await page.getByRole('button', { name: '라이트 모드로 전환' }).getAttribute('aria-pressed')).toBe('true');
      await expect.poll(async () => luminance(await background(page))).toBeLessThan(0.2);

      await page.reload();
      await page.getByRole('button', { name: '라이트 모드로 전환' }).waitFor();
      expect(await isDark(page)).toBe(true);
      expect(luminance(await background(page))).toBeLessThan(0.2);
      expect(await page.evaluate(() => window.localStorage.getItem('smm.darkMode'))).toBe('true');

      await page.getByRole('button', { name: '라이트 모드로 전환' }).click();
      await page.reload();
      await page.getByRole('button', { name: '다크 모드로 전환' }).waitFor();
      expect(await isDark(page)).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('follows the browser preference until the visitor chooses', async () => {
    const { page, context } = await open({ viewport: desktop });
    try {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto('/login');
      await heading(page, '로그인');
      expect(await isDark(page)).toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe('at 390 × 844 (a phone held upright)', () => {
  let member: Member;
  beforeAll(async () => {
    member = await newMember();
    await fund(member, 50_000);
  });

  it('collapses the navigation into a hamburger menu and advises landscape mode', async () => {
    const { page, context, errors } = await open({ viewport: phone, mobile: true });
    try {
      await page.goto('/');
      // The inline menu is hidden; the hamburger opens the same entries.
      const burger = page.getByRole('button', { name: '메뉴 열기' });
      await burger.waitFor();
      // (hidden elements have no role for getByRole, hence CSS here)
      const inline = page.locator('header nav[aria-label="주 메뉴"] a', { hasText: '로그인' });
      expect(await inline.count()).toBe(1);
      expect(await inline.isVisible()).toBe(false);
      const banner = page.getByRole('note').filter({ hasText: '화면을 가로로 돌리면' });
      await banner.waitFor();
      expect(await banner.textContent()).toContain('화면을 가로로 돌리면 표와 주문서를 더 편하게 볼 수 있습니다.');

      expect(await burger.getAttribute('aria-expanded')).toBe('false');
      await burger.click();
      const menu = page.getByRole('navigation', { name: '주 메뉴 (모바일)' });
      await menu.waitFor();
      expect(await menu.getByRole('link').allTextContents()).toEqual(['로그인', '회원가입']);
      expect(await menu.getByRole('button', { name: '둘러보기' }).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: '메뉴 닫기' }).getAttribute('aria-expanded')).toBe('true');
      await shot(page, 'mobile-menu-visitor-light', { fullPage: false });
      await menu.getByRole('link', { name: '로그인' }).click();
      await page.waitForURL('**/login');
      expect(await menu.isVisible()).toBe(false);

      // The banner can be dismissed for the visit.
      await page.getByRole('button', { name: '안내 닫기' }).click();
      expect(await banner.count()).toBe(0);
      await page.reload();
      await heading(page, '로그인');
      expect(await page.getByRole('note').filter({ hasText: '화면을 가로로 돌리면' }).count()).toBe(0);
      // Nothing sticks out sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows a member's entries and balance in the menu, and orders on a phone", async () => {
    const { page, context, errors } = await open({ viewport: phone, mobile: true, token: member.token, theme: 'dark' });
    try {
      await page.goto('/order');
      await heading(page, '주문하기');
      await page.getByRole('button', { name: '메뉴 열기' }).click();
      const menu = page.getByRole('navigation', { name: '주 메뉴 (모바일)' });
      await menu.waitFor();
      const links = await menu.getByRole('link').allTextContents();
      expect(links).toEqual(expect.arrayContaining(['주문하기', '주문 내역', '자동 주문 내역', '포인트 충전', '계정 설정', '로그아웃']));
      expect(await menu.getByTestId('nav-balance').textContent()).toContain('50,000원');
      await shot(page, 'mobile-menu-member-dark', { fullPage: false });
      await page.keyboard.press('Escape');
      expect(await menu.isVisible()).toBe(false);

      for (const path of ['/order', '/point', '/order-history']) {
        await page.goto(path);
        await page.locator('main h1').waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} is wider than the phone`).toBeLessThanOrEqual(phone.width);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
