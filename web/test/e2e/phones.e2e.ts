import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, api, eventually, fund, newMember, phoneVerification, placeOrder, sentCode, serviceNamed, uniqueId, uniquePhone } from './support/api.ts';
import { type Theme, desktop, disconnect, heading, open, phone, shot, toasts } from './support/browser.ts';

/**
 * Issue 17 on a phone (390 × 844): history rows as cards with every field, the floating chat
 * button never over a control or text, sign-up's resend and changing the number, the password
 * length rule and the "session ended" notice. Screenshots in both themes at phone and desktop size.
 */
let member: Member;
let activeAutoId = 0;

beforeAll(async () => {
  member = await newMember();
  await fund(member, 50_000);
  const likes = await serviceNamed('인스타그램 한국인 좋아요');
  await placeOrder(member, { serviceId: likes.id, link: 'https://www.instagram.com/p/phone-card-once', amount: 100 });
  activeAutoId = (await placeOrder(member, { serviceId: likes.id, link: 'https://www.instagram.com/p/phone-card-auto', amount: 20, runs: 5, interval: 1440 })).id;
  await eventually(
    () => api<{ items: Array<{ id: number; completed: number }> }>('GET', '/service/auto-order-history', { token: member.token }),
    (res) => (res.body.items.find((a) => a.id === activeAutoId)?.completed ?? 0) >= 1,
    30_000,
    'first run of the auto order',
  );
});

afterAll(disconnect);

const orderHeads = ['주문번호', '주문일시', '상품', '링크', '사용 금액', '수량', '상태', '시작 수량', '남은 수량'];

/** Nothing on the page is wider than the screen: no sideways scrolling. */
const overflowsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe('history on a phone', () => {
  it('shows each order as a card with all nine fields, and no table', async () => {
    const { page, context, errors } = await open({ viewport: phone, mobile: true, token: member.token });
    try {
      await page.goto('/order-history');
      await heading(page, '주문 내역');
      const card = page.getByTestId('history-card').filter({ hasText: 'phone-card-once' });
      await card.waitFor();
      const text = (await card.textContent()) ?? '';
      for (const head of orderHeads) expect(text).toContain(head);
      expect(text).toContain('주문 접수');
      expect(await page.locator('table').isVisible()).toBe(false);
      expect(await overflowsSideways(page)).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('puts the cancel button on the auto order’s card; the dialog and the toast state the refund', async () => {
    const { page, context } = await open({ viewport: phone, mobile: true, token: member.token });
    try {
      await page.goto('/auto-order-history');
      await heading(page, '자동 주문 내역');
      const card = page.getByTestId('history-card').filter({ hasText: 'phone-card-auto' });
      await card.waitFor();
      expect(await overflowsSideways(page)).toBe(false);
      const item = (await api<{ items: Array<{ id: number; completed: number; runs: number; chargeDeci: number }> }>('GET', '/service/auto-order-history', { token: member.token })).body.items.find((a) => a.id === activeAutoId)!;
      const expected = ((item.chargeDeci / item.runs) * (item.runs - item.completed)) / 10;
      await card.getByRole('button', { name: /취소$/ }).click();
      const dialog = page.getByRole('dialog');
      await expect.poll(async () => (await dialog.textContent()) ?? '').toContain(`${expected.toLocaleString('ko-KR')}원이 포인트로 환불됩니다`);
      await dialog.getByRole('button', { name: '자동 주문 취소' }).click();
      await expect.poll(async () => (await toasts(page).allTextContents()).join('\n')).toContain(`${expected.toLocaleString('ko-KR')}원이 포인트로 환불됩니다`);
    } finally {
      await context.close();
    }
  });
});

/**
 * Scrolls each visible control and text element to the bottom edge of the screen (where the
 * button floats) and fails when the button is shown over it.
 */
async function chatCovers(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const chat = document.querySelector<HTMLElement>('[data-testid="chat-button"]');
    if (!chat) return ['no chat button'];
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 30))));
    const covered: string[] = [];
    const targets = [...document.querySelectorAll<HTMLElement>('main button, main input, main select, main a, main label, main p, main li, main dd, main h1, main h2')].filter((el) => el.offsetParent !== null);
    for (const target of targets) {
      target.scrollIntoView({ block: 'end' });
      await frame();
      const a = target.getBoundingClientRect();
      const b = chat.getBoundingClientRect();
      const overlaps = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      if (overlaps && getComputedStyle(chat).opacity !== '0') await frame();
      if (overlaps && getComputedStyle(chat).opacity !== '0') covered.push(`${target.tagName} ${target.textContent?.trim().slice(0, 30) ?? ''}`);
    }
    return covered;
  });
}

const chatShown = (page: Page) => page.getByTestId('chat-button').evaluate((el) => getComputedStyle(el).opacity !== '0');

describe('the floating chat button on a phone', () => {
  it('never covers a control or text on /point, and shows at the bottom of the page', async () => {
    const { page, context } = await open({ viewport: phone, mobile: true, token: member.token });
    try {
      await page.goto('/point');
      await heading(page, '포인트 충전');
      await page.getByTestId('chat-button').waitFor({ state: 'attached' });
      expect(await chatCovers(page)).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect.poll(() => chatShown(page)).toBe(true);
    } finally {
      await context.close();
    }
  });

  describe('on registration with phone verification', () => {
    beforeAll(() => phoneVerification(true));
    afterAll(() => phoneVerification(false));

    it('never covers 인증번호 전송; the number can be changed and a new code sent; passwords must be 8–20 characters', async () => {
      const { page, context, errors } = await open({ viewport: phone, mobile: true });
      try {
        await page.goto('/register');
        await heading(page, '회원가입');
        const phoneField = page.getByLabel('휴대폰 번호');
        await phoneField.waitFor();
        expect(await chatCovers(page)).toEqual([]);

        const id = uniqueId('p');
        await page.getByLabel('아이디', { exact: true }).fill(id);
        await page.getByLabel('이메일').fill(`${id}@example.com`);
        await page.getByLabel('비밀번호', { exact: true }).fill('abc');
        await page.getByLabel('비밀번호 확인').fill('abc');
        const where = page.getByLabel('가입 경로');
        await expect.poll(() => where.locator('option').count()).toBeGreaterThan(1);
        await where.selectOption({ index: 1 });

        const typo = uniquePhone();
        await phoneField.fill(typo);
        await page.getByRole('button', { name: '인증번호 전송' }).click();
        const counting = page.getByRole('button', { name: /^재전송 \d+초$/ });
        await counting.waitFor();
        expect(await counting.isDisabled()).toBe(true);
        const first = Number(/\d+/.exec((await counting.textContent()) ?? '')?.[0]);
        await expect.poll(async () => Number(/\d+/.exec((await counting.textContent()) ?? '')?.[0])).toBeLessThan(first);
        await shot(page, 'phone-register-resend-light', { fullPage: false });

        // A typo: the field stays editable, and a new number can be sent to at once.
        const right = uniquePhone();
        await phoneField.fill(right);
        const send = page.getByRole('button', { name: '인증번호 전송' });
        expect(await send.isEnabled()).toBe(true);
        await send.click();
        await counting.waitFor();
        await page.getByLabel('인증번호', { exact: true }).fill(await sentCode(right));
        await page.getByRole('button', { name: '가입하기' }).click();
        await expect.poll(() => page.getByRole('alert').allTextContents()).toContain('비밀번호는 8~20자로 입력해 주세요.');

        await page.getByLabel('비밀번호', { exact: true }).fill('long-enough-1');
        await page.getByLabel('비밀번호 확인').fill('long-enough-1');
        await page.getByRole('button', { name: '가입하기' }).click();
        await page.waitForURL('**/login');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});

describe('a session that ended', () => {
  it('says so when a 401 sends the member to the login screen', async () => {
    const { page, context } = await open({ viewport: phone, mobile: true, token: 'expired.token.value' });
    try {
      await page.goto('/account');
      await page.waitForURL('**/login');
      await expect.poll(async () => (await toasts(page).allTextContents()).join('\n')).toContain('로그인 세션이 종료되었습니다. 다시 로그인해 주세요.');
    } finally {
      await context.close();
    }
  });
});

describe('the landing page', () => {
  it('draws the strengths with SVG icons (no emoji) and dates the reviews yyyy-mm-dd; the footer is Korean', async () => {
    const { page, context, errors } = await open({ viewport: phone, mobile: true });
    try {
      await page.goto('/');
      const strengths = page.locator('article').filter({ hasText: '24시간 자동 반복 주문' }).first();
      await strengths.waitFor({ state: 'attached' });
      expect(await strengths.locator('svg').count()).toBe(1);
      expect(await page.evaluate(() => /[\u{1F300}-\u{1FAFF}\u{2600}-\u{26FF}]/u.test(document.querySelector('main')?.textContent?.replace(/★/g, '') ?? ''))).toBe(false);
      const dates = await page.locator('article time').allTextContents();
      expect(dates.length).toBeGreaterThan(0);
      for (const date of dates) expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(await page.locator('footer').textContent()).toContain('모든 권리 보유.');
      expect(await page.locator('footer').textContent()).not.toContain('All rights reserved');
      await shot(page, 'i17-landing-phone-light');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('screenshots (phone and desktop, both themes)', () => {
  const screens = [
    { name: 'order-history', path: '/order-history', title: '주문 내역' },
    { name: 'auto-order-history', path: '/auto-order-history', title: '자동 주문 내역' },
    { name: 'point', path: '/point', title: '포인트 충전' },
  ];
  for (const theme of ['light', 'dark'] as Theme[]) {
    for (const [size, viewport] of [['phone', phone], ['desktop', desktop]] as const) {
      it(`${size} ${theme}`, async () => {
        const { page, context } = await open({ viewport, mobile: size === 'phone', theme, token: member.token });
        try {
          for (const screen of screens) {
            await page.goto(screen.path);
            await heading(page, screen.title);
            await page.waitForTimeout(500);
            await shot(page, `i17-${screen.name}-${size}-${theme}`);
          }
        } finally {
          await context.close();
        }
      });
    }
  }
});
