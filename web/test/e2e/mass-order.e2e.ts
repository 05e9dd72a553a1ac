import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, api, asAdmin, balanceDeci, fund, newMember, serviceNamed } from './support/api.ts';
import { type Theme, desktop, disconnect, heading, open, phone, shot, toasts } from './support/browser.ts';

/**
 * Issue 40 in Chromium: the mass order page (paste, checks, total, one submit placing each line
 * once), the top-up history as cards with the member's cancel and the operator's reason, and a
 * password change signing the member's other tabs out live with its own message.
 */
let member: Member;
let likes: Awaited<ReturnType<typeof serviceNamed>>;

beforeAll(async () => {
  member = await newMember();
  await fund(member, 10_000);
  likes = await serviceNamed('인스타그램 한국인 좋아요'); // 2.5원 per like, min 10
});

afterAll(disconnect);

const orderLinks = async (m: Member) =>
  (await api<{ items: Array<{ id: number; link: string; pointDeci: number }> }>('GET', '/service/order-history?pageSize=100', { token: m.token })).body.items;

describe('mass order (대량 주문)', () => {
  it('checks every pasted line before paying, then places each line once even when the button is pressed twice', async () => {
    const { page, context, errors } = await open({ viewport: desktop, token: member.token });
    try {
      await page.goto('/order');
      await page.getByRole('link', { name: '대량 주문' }).first().click();
      await heading(page, '대량 주문');
      const paste = page.getByLabel('주문 목록');
      await page.getByText('서비스 번호 찾기').waitFor();
      await paste.fill(
        [
          `${likes.id} | https://www.instagram.com/p/mass-a | 100`,
          `${likes.id} | https://www.instagram.com/p/mass-b | 5`,
          '999999 | https://www.instagram.com/p/mass-c | 10',
          `${likes.id} | https://www.instagram.com/p/mass-a | 200`,
          `${likes.id} https://www.instagram.com/p/mass-d 10`,
        ].join('\n'),
      );
      const lines = page.getByTestId('mass-line');
      await expect.poll(() => lines.count()).toBe(5);
      const texts = await lines.allTextContents();
      expect(texts[0]).toContain('250원');
      expect(texts[1]).toContain('최소 주문 수량보다 적습니다. (최소 10)');
      expect(texts[2]).toContain('존재하지 않는 서비스 번호입니다.');
      expect(texts[3]).toContain('1번째 줄과 같은 서비스·링크입니다.');
      expect(texts[4]).toContain('형식이 올바르지 않습니다.');
      expect(await page.getByTestId('mass-bad-count').textContent()).toBe('4줄');
      const submit = page.getByRole('button', { name: /건 주문하기$/ });
      expect(await submit.isDisabled()).toBe(true);
      expect(await page.getByRole('alert').allTextContents()).toContain('확인이 필요한 줄을 고친 뒤 주문할 수 있습니다.');
      await shot(page, 'i40-mass-order-check-desktop-light');

      await paste.fill([`${likes.id} | https://www.instagram.com/p/mass-a | 100`, `${likes.id} | https://www.instagram.com/p/mass-b | 300`].join('\n'));
      await expect.poll(() => page.getByTestId('mass-total').textContent()).toBe('1,000원');
      await expect.poll(() => submit.isEnabled()).toBe(true);
      expect(await submit.textContent()).toBe('2건 주문하기');
      // Two presses in a row: one submit, each line placed once.
      await submit.dblclick();
      const results = page.getByTestId('mass-result');
      await expect.poll(() => results.count()).toBe(2);
      expect(await page.getByTestId('mass-results').textContent()).toContain('2줄 중 2건 접수 · 결제 1,000원');
      expect(await results.evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toEqual(['placed', 'placed']);
      await expect.poll(async () => (await toasts(page).allTextContents()).join('\n')).toContain('2건의 주문이 접수되었습니다.');
      await shot(page, 'i40-mass-order-results-desktop-light');
      const orders = await orderLinks(member);
      expect(orders.map((o) => o.link).sort()).toEqual(['https://www.instagram.com/p/mass-a', 'https://www.instagram.com/p/mass-b']);
      expect(await balanceDeci(member.token)).toBe(100_000 - 10_000);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('refuses to pay more than the balance: the shortfall is shown and the button stays off', async () => {
    const { page, context } = await open({ viewport: phone, mobile: true, token: member.token, theme: 'dark' });
    try {
      await page.goto('/mass-order');
      await heading(page, '대량 주문');
      await page.getByText('서비스 번호 찾기').waitFor();
      await page.getByLabel('주문 목록').fill(`${likes.id} | https://www.instagram.com/p/mass-big | 10000`);
      await expect.poll(async () => (await page.getByRole('alert').allTextContents()).join('\n')).toContain('포인트가 부족합니다. 16,000원이 더 필요합니다.');
      expect(await page.getByRole('button', { name: /건 주문하기$/ }).isDisabled()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      await shot(page, 'i40-mass-order-phone-dark');
    } finally {
      await context.close();
    }
  });

  for (const [theme, viewport, name] of [['dark', desktop, 'desktop'], ['light', phone, 'phone']] as Array<[Theme, typeof desktop, string]>) {
    it(`draws the checks in the ${theme} theme at ${name} size`, async () => {
      const { page, context, errors } = await open({ viewport, mobile: viewport === phone, token: member.token, theme });
      try {
        await page.goto('/mass-order');
        await heading(page, '대량 주문');
        await page.getByText('서비스 번호 찾기').waitFor();
        await page.getByLabel('주문 목록').fill([`${likes.id} | https://www.instagram.com/p/shot-1 | 100`, `${likes.id} | https://www.instagram.com/p/shot-2 | 5`].join('\n'));
        await expect.poll(() => page.getByTestId('mass-line').count()).toBe(2);
        await shot(page, `i40-mass-order-${name}-${theme}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});

describe('top-up history (충전 내역)', () => {
  it('is a card per request on a phone, with the member’s own cancel and the operator’s rejection reason', async () => {
    const m = await newMember();
    const asked = await api<{ id: number }>('POST', '/service/point', { token: m.token, body: { name: '카드회원', point: 5_000, feeType: 'none', feeValue: null } });
    expect(asked.status).toBe(201);
    const { page, context, errors } = await open({ viewport: phone, mobile: true, token: m.token });
    try {
      await page.goto('/point');
      await heading(page, '포인트 충전');
      const card = page.getByTestId('top-up-card').first();
      await card.waitFor();
      expect(await page.locator('table').isVisible()).toBe(false);
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      await card.getByRole('button', { name: '신청 취소' }).click();
      const dialog = page.getByRole('dialog');
      await expect.poll(async () => (await dialog.textContent()) ?? '').toContain('이미 입금하셨다면 취소하지 말고');
      await dialog.getByRole('button', { name: '신청 취소하기' }).click();
      await expect.poll(async () => (await toasts(page).allTextContents()).join('\n')).toContain('충전 신청을 취소했습니다.');
      await expect.poll(async () => (await card.textContent()) ?? '').toContain('회원님이 신청을 취소했습니다.');
      expect(await card.getByTestId('top-up-status').textContent()).toBe('신청 취소');

      // The next request is rejected by an operator with a reason the member reads on the card.
      const second = await api<{ id: number }>('POST', '/service/point', { token: m.token, body: { name: '카드회원', point: 10_000, feeType: 'none', feeValue: null } });
      expect(second.status).toBe(201);
      const rejected = await api('POST', `/admin/top-ups/${second.body.id}/reject`, { token: await asAdmin(), body: { reason: '입금자명이 신청과 다릅니다.' } });
      expect(rejected.status).toBe(200);
      const newest = page.getByTestId('top-up-card').first();
      await expect.poll(async () => (await newest.textContent()) ?? '', { timeout: 20_000 }).toContain('입금자명이 신청과 다릅니다.');
      expect(await newest.getByTestId('top-up-status').textContent()).toBe('충전 거절');
      await shot(page, 'i40-top-up-cards-phone-light');
      expect(await balanceDeci(m.token)).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('a password change', () => {
  it('signs the member’s other tabs and devices out at once, saying why', async () => {
    const m = await newMember();
    const here = await open({ viewport: desktop, token: m.token });
    const elsewhere = await open({ viewport: phone, mobile: true, token: m.token });
    try {
      const sameBrowser = await here.context.newPage();
      await sameBrowser.goto('/order-history');
      await elsewhere.page.goto('/order-history');
      await heading(elsewhere.page, '주문 내역');
      // The other device's live stream is open once a balance change reaches its screen.
      await fund(m, 5_000);
      await expect.poll(() => elsewhere.page.getByTestId('nav-balance').first().textContent(), { timeout: 30_000 }).toContain('5,000원');

      // Toasts last 2 seconds: each page records every one it shows, so the check does not race them.
      for (const page of [elsewhere.page, sameBrowser]) {
        await page.evaluate(() => {
          const seen: string[] = [];
          (window as unknown as { seenToasts: string[] }).seenToasts = seen;
          new MutationObserver(() => {
            for (const toast of document.querySelectorAll('[data-testid="toast"]')) if (!seen.includes(toast.textContent ?? '')) seen.push(toast.textContent ?? '');
          }).observe(document.body, { childList: true, subtree: true, characterData: true });
        });
      }
      await here.page.goto('/account');
      await heading(here.page, '계정 설정');
      await here.page.getByLabel('현재 비밀번호').fill(m.password);
      await here.page.getByLabel('새 비밀번호', { exact: true }).fill('changed-pass-1');
      await here.page.getByLabel('새 비밀번호 확인').fill('changed-pass-1');
      await here.page.getByRole('button', { name: '비밀번호 변경' }).click();
      await here.page.waitForURL('**/login');

      const message = '비밀번호가 변경되어 로그아웃되었습니다. 새 비밀번호로 다시 로그인해 주세요.';
      for (const page of [elsewhere.page, sameBrowser]) {
        await page.waitForURL('**/login', { timeout: 20_000 });
        await expect.poll(() => page.evaluate(() => (window as unknown as { seenToasts: string[] }).seenToasts.join('\n'))).toContain(message);
      }
      await shot(elsewhere.page, 'i40-password-changed-elsewhere-phone-light', { fullPage: false });
      expect(here.errors).toEqual([]);
    } finally {
      await here.context.close();
      await elsewhere.context.close();
    }
  });
});
