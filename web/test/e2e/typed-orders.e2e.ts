import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, balanceDeci, fund, newMember, serviceNamed } from './support/api.ts';
import { type Theme, type Viewport, disconnect, heading, open, phone, shot } from './support/browser.ts';

/**
 * Issue 40 in the browser: the order screen asks a typed product's own fields — comments one per
 * line counted as the quantity, a package's fixed quantity at the price of one package — refuses a
 * wrong entry in Korean without charging, places the order and shows what was given in the history.
 * Screenshots `typed-order-*.png` at 1280 px and 390 px, both themes.
 */
const wide: Viewport = { width: 1280, height: 900 };
let member: Member;
let comments: { id: number };
let pack: { id: number };

beforeAll(async () => {
  member = await newMember();
  await fund(member, 100_000);
  comments = await serviceNamed('인스타그램 한국인 댓글 직접 입력');
  pack = await serviceNamed('인스타그램 한국인 좋아요 1,000개 패키지');
});

afterAll(disconnect);

const lines = ['사진 분위기 최고예요', '색감이 너무 예뻐요', '다음 게시물도 기대할게요', '저장해두고 또 볼게요', '팔로우하고 갑니다'];

describe('typed products on the order screen', () => {
  it('custom comments: counted lines, a Korean refusal that charges nothing, then the order and its comments in the history', async () => {
    const { page, context, errors } = await open({ viewport: wide, theme: 'light', token: member.token });
    try {
      await page.goto('/order');
      await heading(page, '주문하기');
      await expect.poll(async () => page.locator('main').innerText()).toContain('인스타그램 한국인 좋아요');
      await page.getByLabel('서비스 분류').selectOption({ label: '댓글' });
      await page.getByLabel('상품 선택').selectOption(String(comments.id));
      await page.getByLabel('주문 링크').fill('https://www.instagram.com/p/typed-browser');
      const box = page.getByLabel('댓글 (한 줄에 하나씩)');
      await box.fill('하나뿐인 댓글');
      await expect.poll(() => page.getByTestId('comments-count').textContent()).toBe('입력 1개 · 최소 5개 · 최대 200개 (한 줄이 1개입니다)');
      const before = await balanceDeci(member.token);
      await page.getByRole('button', { name: '주문하기', exact: true }).click();
      await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('입력한 줄 수가 최소 주문 수량보다 적습니다. (최소 5개)');
      expect(await balanceDeci(member.token)).toBe(before);

      await box.fill(lines.join('\n'));
      await expect.poll(() => page.getByTestId('total-price').textContent()).toBe('1,250원'); // 5 × 250원
      await shot(page, 'typed-order-comments-light');
      await page.getByRole('button', { name: '주문하기', exact: true }).click();
      await page.waitForURL('**/order-history');
      await heading(page, '주문 내역');
      await page.getByText('입력한 댓글 5개').first().click();
      await expect.poll(async () => page.locator('main').innerText()).toContain(lines[4]!);
      expect(await balanceDeci(member.token)).toBe(before - 12_500);
      await shot(page, 'typed-order-history-light');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('package: its quantity and the price of one package', async () => {
    const { page, context, errors } = await open({ viewport: wide, theme: 'dark', token: member.token });
    try {
      await page.goto('/order');
      await heading(page, '주문하기');
      await expect.poll(async () => page.locator('main').innerText()).toContain('인스타그램 한국인 좋아요');
      await page.getByLabel('상품 선택').selectOption(String(pack.id));
      await expect.poll(() => page.getByTestId('package-quantity').textContent()).toBe('이 패키지는 1,000개가 한 번에 진행됩니다. 가격은 패키지 1개 가격입니다.');
      await expect.poll(() => page.getByTestId('total-price').textContent()).toBe('2,200원');
      expect(await page.getByLabel('수량', { exact: true }).count()).toBe(0);
      await page.getByLabel('주문 링크').fill('https://www.instagram.com/p/typed-package');
      await shot(page, 'typed-order-package-dark');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.for([
    ['light', wide],
    ['dark', wide],
    ['light', phone],
    ['dark', phone],
  ] as Array<[Theme, Viewport]>)('the comments form fits the window (%s, %o)', async ([theme, viewport]) => {
    const { page, context } = await open({ viewport, theme, token: member.token, mobile: viewport === phone });
    try {
      await page.goto('/order');
      await heading(page, '주문하기');
      await expect.poll(async () => page.locator('main').innerText()).toContain('인스타그램 한국인 좋아요');
      await page.getByLabel('서비스 분류').selectOption({ label: '댓글' });
      await page.getByLabel('상품 선택').selectOption(String(comments.id));
      await page.getByLabel('댓글 (한 줄에 하나씩)').fill(lines.slice(0, 3).join('\n'));
      await expect.poll(() => page.getByTestId('total-price').textContent()).toBe('750원');
      await shot(page, `typed-order-form-${viewport.width}-${theme}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    } finally {
      await context.close();
    }
  });
});
