import type { Page } from 'playwright-core';
import { type ExpectStatic, afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, eventually, api, fund, newMember, placeOrder, serviceNamed } from './support/api.ts';
import { type Theme, type Viewport, desktop, disconnect, heading, open, phone, shot } from './support/browser.ts';

/**
 * Every screen in both themes, saved to web/test/e2e/artifacts/<screen>-<theme>.png for a person
 * to look at, each with a check of what it must show. The member has a balance, a one-off order,
 * a finished and an active auto order, and top-ups.
 */
let member: Member;

beforeAll(async () => {
  member = await newMember();
  await fund(member, 100_000);
  const likes = await serviceNamed('인스타그램 한국인 좋아요');
  const followers = await serviceNamed('인스타그램 한국인 팔로워');
  await placeOrder(member, { serviceId: likes.id, link: 'https://www.instagram.com/p/screens-once', amount: 100 });
  await placeOrder(member, { serviceId: followers.id, link: 'grow_panel_official', amount: 50 });
  const finished = await placeOrder(member, { serviceId: likes.id, link: 'https://www.instagram.com/p/screens-auto', amount: 10, runs: 2, interval: 60 });
  await placeOrder(member, { serviceId: likes.id, link: 'https://www.instagram.com/p/screens-active', amount: 20, runs: 5, interval: 1440 });
  await eventually(
    () => api<{ items: Array<{ id: number; status: number }> }>('GET', '/service/auto-order-history', { token: member.token }),
    (res) => res.body.items.find((a) => a.id === finished.id)?.status === 1,
    30_000,
    'finished auto order',
  );
  await api('POST', '/service/point', { token: member.token, body: { name: '홍길동', point: 30_000, feeType: 'cash', feeValue: { phone: '01012345678' } } });
});

afterAll(disconnect);

type Screen = {
  name: string;
  path: string;
  as: 'visitor' | 'member';
  title: string;
  /** Texts the screen must show. */
  shows: string[];
  /** Reached by following this link from `path` (a screen a direct load cannot open). */
  via?: string;
  /** Something to do before the screenshot (open an accordion, submit a form). */
  act?: (page: Page) => Promise<void>;
};

const screens: Screen[] = [
  { name: 'landing', path: '/', as: 'visitor', title: '좋아요·팔로워·조회수,\n자동 반복 주문으로 꾸준하게', shows: ['자동 반복 주문', '무료 회원가입', '#'] },
  { name: 'login', path: '/login', as: 'visitor', title: '로그인', shows: ['아이디 저장', '회원가입'] },
  { name: 'register', path: '/register', as: 'visitor', title: '회원가입', shows: ['가입 경로', '추천인 코드 (선택)'] },
  { name: 'terms-service', path: '/terms/service', as: 'visitor', title: '이용약관', shows: ['48시간'] },
  { name: 'terms-privacy', path: '/terms/privacy', as: 'visitor', title: '개인정보처리방침', shows: ['5년'] },
  { name: 'order', path: '/order', as: 'member', title: '주문하기', shows: ['공지사항', '인스타그램', '총 결제 금액'] },
  { name: 'order-auto', path: '/order', as: 'member', title: '주문하기', shows: ['반복 횟수', '총 수량'], act: async (page) => {
    // The catalogue first: when it arrives it selects the first platform, category and product
    // (spec §4 resets), which on a busy machine can land after fields typed before it.
    await expect.poll(async () => page.locator('main').innerText()).toContain('인스타그램 한국인 좋아요');
    await page.getByLabel('주문 링크').fill('https://www.instagram.com/p/screens');
    await page.getByLabel('자동 주문', { exact: true }).check();
    await expect.poll(() => page.getByLabel('반복 횟수').isVisible()).toBe(true);
    await page.getByLabel('수량', { exact: true }).fill('100');
    await page.getByLabel('반복 횟수').fill('24');
    await page.getByLabel('주문 간격(분)').fill('60');
    await expect.poll(() => page.getByTestId('total-price').textContent()).toBe('6,000원');
  } },
  { name: 'point', path: '/point', as: 'member', title: '포인트 충전', shows: ['충전 내역', '입금 대기', '충전 완료', '5,000원 단위'] },
  { name: 'point-deposit', path: '/point', as: 'member', title: '포인트 충전', shows: ['입금 안내', '123456-01-234567', '55,000원'], act: async (page) => {
    const form = page.getByRole('form', { name: '충전 신청서' });
    await form.getByRole('button', { name: '50,000원 더하기' }).click();
    await form.getByRole('button', { name: '5,000원 더하기' }).click();
    await form.getByLabel('입금자명').fill('김입금');
    await form.getByRole('button', { name: '충전 신청하기' }).click();
    await page.getByTestId('deposit-instructions').waitFor();
  } },
  { name: 'point-tax-invoice', path: '/point', as: 'member', title: '포인트 충전', shows: ['세금계산서', '11,000원'], act: async (page) => {
    const form = page.getByRole('form', { name: '충전 신청서' });
    await form.getByRole('button', { name: '10,000원 더하기' }).click();
    await form.getByLabel('세금계산서').check();
    await expect.poll(() => page.getByTestId('topup-transfer').textContent()).toBe('11,000원');
  } },
  { name: 'account', path: '/account', as: 'member', title: '계정 설정', shows: ['추천인 코드', '추천 적립', '비밀번호 변경', 'API 키', '보유 포인트'] },
  { name: 'order-history', path: '/order-history', as: 'member', title: '주문 내역', shows: ['인스타그램 한국인 좋아요', '250원', '주문 접수', 'grow_panel_official'] },
  { name: 'auto-order-history', path: '/auto-order-history', as: 'member', title: '자동 주문 내역', shows: ['2/2', '완료', '진행중', '24시간'] },
  { name: 'qna', path: '/qna', as: 'member', title: '자주 묻는 질문', shows: ['Q'], act: async (page) => {
    // An accordion: one answer open at a time, clicking the open one closes it.
    const questions = page.locator('main h2 button');
    await questions.first().waitFor();
    // Each state is polled: a click resolves when dispatched, the re-render may land a moment later on a loaded machine.
    const expanded = (i: number) => questions.nth(i).getAttribute('aria-expanded');
    await questions.nth(0).click();
    await expect.poll(() => expanded(0)).toBe('true');
    await questions.nth(1).click();
    await expect.poll(() => expanded(1)).toBe('true');
    expect(await expanded(0)).toBe('false');
    await questions.nth(1).click();
    await expect.poll(() => expanded(1)).toBe('false');
    await questions.nth(0).click();
  } },
  // Direct loads of /api reach the BFF's JSON API instead of the app (see below): opened from the account page.
  // The BFF's description of both API versions: v1 calls with their fields, every v2 action with an example.
  { name: 'api', path: '/account', via: 'API 문서 보기', as: 'member', title: 'API 문서', shows: ['api-key', 'Idempotency-Key', '/services', '/order', '/status', 'INSUFFICIENT_POINTS', 'action=services', 'action=add', 'action=status', 'action=balance', 'action=refill', 'action=refill_status', 'action=cancel', 'Not enough funds on balance'] },
  { name: 'price-list', path: '/price-list', as: 'member', title: '가격표', shows: ['인스타그램 한국인 좋아요', '2.5원'] },
];

// `check` is the running test's own expect: in concurrent tests the global one loses track of which test it is in.
async function capture(screen: Screen, theme: Theme, viewport: Viewport, suffix = '', check: ExpectStatic = expect) {
  const { page, context, errors } = await open({ viewport, theme, token: screen.as === 'member' ? member.token : undefined, mobile: viewport === phone });
  try {
    await page.goto(screen.path);
    if (screen.via) await page.getByRole('main').getByRole('link', { name: screen.via }).click();
    await heading(page, screen.title);
    await screen.act?.(page);
    // The screen's data arrives after its heading: wait for every text it must show.
    const text = async () => (await page.locator('main').innerText()).replace(/\s+/g, ' ');
    for (const expected of screen.shows) await check.poll(text, { message: `${screen.name} shows ${expected}` }).toContain(expected.replace(/\s+/g, ' '));
    await shot(page, `${screen.name}${suffix}-${theme}`);
    check(errors, `${screen.name}: errors in the page`).toEqual([]);
    return await page.evaluate(() => document.documentElement.scrollWidth);
  } finally {
    await context.close();
  }
}

type Job = { label: string; screen: Screen; theme: Theme; viewport: Viewport; suffix: string };
const phoneScreens = ['landing', 'order', 'order-history', 'point', 'account', 'api'];
const jobs: Job[] = (['light', 'dark'] as const).flatMap((theme) => [
  ...screens.map((screen) => ({ label: `${screen.name} (${theme})`, screen, theme, viewport: desktop, suffix: '' })),
  ...screens
    .filter((screen) => phoneScreens.includes(screen.name))
    .map((screen) => ({ label: `${screen.name} on a phone (${theme})`, screen, theme, viewport: phone, suffix: '-mobile' })),
]);

// A few screens at a time: most of a capture is waiting for the page.
describe.concurrent('every screen in both themes', () => {
  it.for(jobs)('$label', async (job, { expect }) => {
    const width = await capture(job.screen, job.theme, job.viewport, job.suffix, expect);
    expect(width, `${job.label} is wider than the window`).toBeLessThanOrEqual(job.viewport.width);
  });

  it.for(['light', 'dark'] as const)('the mobile menu (%s)', async (theme) => {
    const { page, context } = await open({ viewport: phone, theme, token: member.token, mobile: true });
    try {
      await page.goto('/order');
      await heading(page, '주문하기');
      await page.getByRole('button', { name: '메뉴 열기' }).click();
      await page.getByRole('navigation', { name: '주 메뉴 (모바일)' }).waitFor();
      await shot(page, `mobile-menu-${theme}`, { fullPage: false });
    } finally {
      await context.close();
    }
  });
});

// The screen's route /api is also the BFF's API base: a browser asking for /api gets the app.
it('opens the API documentation screen by its address (/api) and on reload', async () => {
  const { page, context } = await open({ token: member.token });
  try {
    await page.goto('/api');
    await page.getByRole('heading', { level: 1, name: 'API 문서' }).waitFor({ timeout: 5_000 });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'API 문서' }).waitFor({ timeout: 5_000 });
  } finally {
    await context.close();
  }
});
