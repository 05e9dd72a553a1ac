import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, api, asAdmin, balanceDeci, eventually, fund, newMember } from './support/api.ts';
import { type Viewport, disconnect, heading, open, phone, shot } from './support/browser.ts';

/**
 * Issue 40's Subscriptions in the browser: the member orders one on the order screen (a Korean
 * refusal first, nothing charged), sees it in the auto-order history; the operator records a new
 * post in the console's 구독 관리; the member sees the post done on a phone and cancels, getting the
 * posts not done back exactly. Screenshots `subscription-*.png` at 1280 px and 390 px, both themes.
 */
const wide: Viewport = { width: 1280, height: 900 };
let member: Member;
let product: { id: number };

beforeAll(async () => {
  member = await newMember();
  await fund(member, 100_000);
  const made = await api<{ id: number }>('POST', '/admin/services', { token: await asAdmin(), body: { text: '인스타그램 자동 좋아요 (구독)', categoryId: 1, min: 50, max: 1000, point: '2', type: 'subscriptions' } });
  if (made.status !== 201) throw new Error(`service answered ${made.status} ${JSON.stringify(made.body)}`);
  product = made.body;
  // The order service's replica knows it once an order for it is judged by its own rules.
  await eventually(async () => (await api('POST', '/service/order', { token: member.token, body: { serviceId: product.id, username: '' } })).body.code, (code) => code === 'USERNAME_REQUIRED', 20_000, 'the subscription product replicated');
});

afterAll(disconnect);

describe('subscriptions on the order screen, the history and the console', () => {
  let subscriptionId = 0;
  let before = 0;

  it('the member orders a subscription: a Korean refusal charges nothing, then max × posts is charged and the history shows it', async () => {
    const { page, context, errors } = await open({ viewport: wide, theme: 'light', token: member.token });
    try {
      await page.goto('/order');
      await heading(page, '주문하기');
      await expect.poll(async () => page.locator('main').innerText()).toContain('인스타그램 한국인 좋아요');
      await page.getByLabel('서비스 분류').selectOption({ label: '좋아요' });
      await page.getByLabel('상품 선택').selectOption(String(product.id));
      expect(await page.getByLabel('주문 링크').count()).toBe(0);
      await page.getByLabel('구독할 프로필 아이디').fill('@brand.kr');
      await page.getByLabel('게시물당 최소 수량').fill('300');
      await page.getByLabel('게시물당 최대 수량').fill('200');
      await page.getByLabel('게시물 수').fill('3');
      await page.getByLabel('지연 시간').selectOption({ label: '게시 후 5분' });
      before = await balanceDeci(member.token);
      await page.getByRole('button', { name: '주문하기', exact: true }).click();
      await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('게시물당 최소 수량이 최대 수량보다 클 수 없습니다.');
      expect(await balanceDeci(member.token)).toBe(before);

      await page.getByLabel('게시물당 최소 수량').fill('100');
      await expect.poll(() => page.getByTestId('total-price').textContent()).toBe('1,200원'); // 2원 × 200 × 3
      await shot(page, 'subscription-order-1280-light');
      await page.getByRole('button', { name: '주문하기', exact: true }).click();
      await page.waitForURL('**/auto-order-history');
      await expect.poll(async () => page.locator('main').innerText()).toContain('@brand.kr · 게시물당 100~200개 · 게시 후 5분');
      await expect.poll(() => page.getByTestId('posts-done').first().textContent()).toBe('게시물 0/3');
      expect(await balanceDeci(member.token)).toBe(before - 12_000);
      const listed = await api<{ items: Array<{ id: number; subscription: { username: string } | null }> }>('GET', '/service/auto-order-history', { token: member.token });
      subscriptionId = listed.body.items.find((o) => o.subscription?.username === 'brand.kr')!.id;
      await shot(page, 'subscription-history-1280-light');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the operator records a new post in 구독 관리 (dark)', async () => {
    const { page, context, errors } = await open({ viewport: wide, theme: 'dark', token: await asAdmin() });
    try {
      await page.goto('/admin/subscriptions');
      await heading(page, '구독 관리');
      const row = page.getByTestId(`subscription-${subscriptionId}`);
      await expect.poll(() => row.innerText()).toContain('@brand.kr');
      await row.getByRole('button', { name: '게시물 기록' }).click();
      await page.getByLabel('게시물 링크 (선택)').fill('https://www.instagram.com/p/brand-post-1');
      await shot(page, 'subscription-console-post-1280-dark', { fullPage: false });
      await page.getByRole('dialog').getByRole('button', { name: '게시물 기록' }).click();
      await expect.poll(() => row.getByTestId('posts-done').textContent()).toBe('1/3');
      await shot(page, 'subscription-console-1280-dark');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('on a phone the member sees the post done and cancels: the 2 posts not done come back, once', async () => {
    const { page, context, errors } = await open({ viewport: phone, theme: 'dark', token: member.token, mobile: true });
    try {
      await page.goto('/auto-order-history');
      await heading(page, '자동 주문 내역');
      await expect.poll(() => page.getByTestId('history-card').first().innerText()).toContain('게시물 1/3');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
      await shot(page, 'subscription-history-390-dark');
      const cancelButton = page.getByRole('button', { name: /^자동 주문 .+ 취소$/ });
      await cancelButton.first().click();
      await expect.poll(async () => page.getByRole('dialog').innerText()).toContain('남은 게시물 2개');
      await page.getByRole('dialog').getByRole('button', { name: '구독 취소' }).click();
      await expect.poll(() => page.getByTestId('history-card').first().innerText()).toContain('취소');
      await eventually(() => balanceDeci(member.token), (b) => b === before - 4000, 20_000, 'the refund of 2 posts');
      await shot(page, 'subscription-canceled-390-dark');
      // A second cancel is not offered, and asked directly it moves nothing.
      expect(await cancelButton.count()).toBe(0);
      expect((await api('POST', `/service/orders/${subscriptionId}/cancel`, { token: member.token })).status).toBe(409);
      expect(await balanceDeci(member.token)).toBe(before - 4000);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the subscription form fits a phone (light)', async () => {
    const { page, context } = await open({ viewport: phone, theme: 'light', token: member.token, mobile: true });
    try {
      await page.goto('/order');
      await heading(page, '주문하기');
      await expect.poll(async () => page.locator('main').innerText()).toContain('인스타그램 한국인 좋아요');
      await page.getByLabel('서비스 분류').selectOption({ label: '좋아요' });
      await page.getByLabel('상품 선택').selectOption(String(product.id));
      await page.getByLabel('구독할 프로필 아이디').fill('brand.kr');
      await page.getByLabel('게시물당 최소 수량').fill('50');
      await page.getByLabel('게시물당 최대 수량').fill('100');
      await page.getByLabel('게시물 수').fill('10');
      await expect.poll(() => page.getByTestId('total-price').textContent()).toBe('2,000원');
      await shot(page, 'subscription-order-390-light');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    } finally {
      await context.close();
    }
  });
});
