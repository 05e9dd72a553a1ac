import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, fund, newMember } from './support/api.ts';
import { disconnect, heading, open } from './support/browser.ts';

/**
 * The order screen when its product list does not come with the rest of the catalogue (a read that
 * failed): it says so and offers to read it again, and the products that then arrive are chosen as
 * if they had come first — the product shown is the one the order uses.
 */
let member: Member;
beforeAll(async () => {
  member = await newMember();
  await fund(member, 10_000);
});
afterAll(disconnect);

describe('the order screen’s product list', () => {
  it('read again after a failed read: the first product is chosen and the order form checks the link next', async () => {
    const { page, context, errors } = await open({ token: member.token });
    try {
      let failed = 0;
      await page.route('**/api/service/services', async (route) => {
        if (failed++ === 0) await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: '일시적으로 사용할 수 없습니다.' }) });
        else await route.continue();
      });
      await page.goto('/order');
      await heading(page, '주문하기');
      const notice = page.getByTestId('catalog-failed');
      await expect.poll(() => notice.textContent()).toContain('서비스 목록을 불러오지 못했습니다.');
      await notice.getByRole('button', { name: '다시 불러오기' }).click();
      await expect.poll(() => notice.count()).toBe(0);
      await expect.poll(() => page.getByLabel('상품 선택').locator('option:checked').textContent()).toContain('인스타그램 한국인 좋아요');
      // The product shown is the product chosen: its minimum is the amount, and the link is asked for next.
      expect(await page.getByLabel('수량', { exact: true }).inputValue()).not.toBe('');
      await page.getByRole('form', { name: '주문서' }).getByRole('button', { name: '주문하기' }).click();
      await expect.poll(() => page.getByRole('alert').allTextContents()).toContain('링크를 입력해 주세요.');
      expect(failed).toBe(2);
      // The failed read is the page's own console error; nothing else went wrong.
      expect(errors.filter((e) => !e.includes('503'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
