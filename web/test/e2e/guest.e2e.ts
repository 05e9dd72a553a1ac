import { afterAll, describe, expect, it } from 'vitest';
import { disconnect, heading, open, toasts } from './support/browser.ts';

afterAll(disconnect);

const guestOrderRefusal = '둘러보기 모드에서는 주문할 수 없습니다. 로그인 후 이용해 주세요.';
const guestRefusal = '둘러보기 모드에서는 이용할 수 없는 기능입니다. 로그인 후 이용해 주세요.';

describe('a visitor', () => {
  it('browses as a guest, sees the catalogue and prices, and is refused an order and the member screens', async () => {
    const { page, context, errors } = await open();
    try {
      await page.goto('/');
      const main = page.getByRole('main');
      await expect.poll(() => main.getByRole('heading', { level: 1 }).textContent()).toContain('자동 반복 주문');
      expect(await main.getByRole('link', { name: '로그인' }).isVisible()).toBe(true);
      expect(await main.getByRole('link', { name: '무료 회원가입' }).isVisible()).toBe(true);
      // Wide screen: the menu is inline, no hamburger.
      expect(await page.getByRole('navigation', { name: '주 메뉴', exact: true }).getByRole('link', { name: '회원가입' }).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: '메뉴 열기' }).isVisible()).toBe(false);
      // The footer carries the company data of the site settings.
      await expect.poll(() => page.getByRole('contentinfo').textContent()).toContain('주식회사 그로우패널');
      // Status bar: the service runs normally, with a clock in Korean time.
      expect(await page.getByTestId('status-bar').textContent()).toMatch(/서비스가 정상 운영 중입니다\.\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);

      await main.getByRole('button', { name: '둘러보기' }).click();
      await page.waitForURL('**/order');
      await heading(page, '주문하기');
      // Guest navigation: login / register / browse, no balance.
      const nav = page.getByRole('navigation', { name: '주 메뉴', exact: true });
      expect(await nav.getByRole('link', { name: '로그인' }).count()).toBe(1);
      expect(await page.getByTestId('nav-balance').count()).toBe(0);

      // The catalogue: first visible platform chosen, its first category and product, min quantity.
      const instagram = page.getByRole('button', { name: '인스타그램' });
      await expect.poll(() => instagram.getAttribute('aria-pressed')).toBe('true');
      const product = page.getByLabel('상품 선택');
      await expect.poll(() => product.locator('option:checked').textContent()).toContain('인스타그램 한국인 좋아요 — 1개당 2.5원');
      expect(await page.getByLabel('수량', { exact: true }).inputValue()).toBe('10');
      expect(await page.getByText('최소 10개 · 최대 10,000개').isVisible()).toBe(true);
      expect(await page.getByTestId('product-notice').textContent()).toContain('실제 한국인 계정이 누르는 좋아요입니다.');

      // Another platform resets the category and the product (spec §4).
      await page.getByRole('button', { name: '유튜브' }).click();
      await expect.poll(() => page.getByLabel('서비스 분류').locator('option:checked').textContent()).toBe('구독자');
      await expect.poll(() => product.locator('option:checked').textContent()).toContain('유튜브 한국인 구독자');
      await instagram.click();

      await page.getByLabel('주문 링크').fill('https://www.instagram.com/p/guest-post');
      await page.getByLabel('수량', { exact: true }).fill('100');
      await expect.poll(() => page.getByTestId('total-price').textContent()).toBe('250원');
      await page.getByRole('form', { name: '주문서' }).getByRole('button', { name: '주문하기' }).click();
      await expect.poll(() => page.getByRole('alert').allTextContents()).toContain(guestOrderRefusal);
      await expect.poll(() => toasts(page).allTextContents()).toContain(guestOrderRefusal);

      // Member screens refuse a guest with the spec's message and keep them on the order screen.
      for (const path of ['/point', '/account', '/order-history']) {
        await page.goto(path);
        await page.waitForURL('**/order');
        await expect.poll(() => toasts(page).allTextContents()).toContain(guestRefusal);
      }
      // Any other path goes to the order screen.
      await page.goto('/no-such-screen');
      await page.waitForURL('**/order');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('is sent to the login form from a member screen when not browsing, and the logo leads home', async () => {
    const { page, context, errors } = await open();
    try {
      await page.goto('/order-history');
      await page.waitForURL('**/login');
      await heading(page, '로그인');
      await page.getByRole('link', { name: /홈$/ }).click();
      await page.waitForURL((url) => url.pathname === '/');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
