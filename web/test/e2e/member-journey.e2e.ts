import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, approvePendingTopUps, balanceDeci, eventually, login, phoneVerification, sentCode, uniqueId, uniquePhone } from './support/api.ts';
import { type Visit, disconnect, heading, open, shot, toasts } from './support/browser.ts';

/**
 * One member's whole journey in one browser context, step by step: each step starts where the
 * previous one left the member (so the file stops making sense after a failed step).
 */
const member = { id: uniqueId('j'), password: 'first-pass-1', newPassword: 'second-pass-2', phone: uniquePhone(), userId: '' };
let visit: Visit;
let page: Page;

const table = () => page.locator('table tbody tr');
const rowsText = async () => (await table().allTextContents()).join('\n');
const chip = (name: string) => page.getByRole('group', { name: '상태 필터' }).getByRole('button', { name, exact: true });
const navBalance = () => page.getByTestId('nav-balance').first();
const navLink = (name: string) => page.getByRole('navigation', { name: '주 메뉴', exact: true }).getByRole('link', { name, exact: true });
const orderForm = () => page.getByRole('form', { name: '주문서' });

/**
 * The history row of an order. When the payment took longer than the order service waits (a busy
 * machine), the order is "accepted, payment pending" and the list loaded at once does not have it
 * yet: the live channel re-reads the list when the payment settles, with no reload.
 */
async function historyRow(text: string) {
  const row = table().filter({ hasText: text });
  await row.first().waitFor({ timeout: 30_000 });
  return row;
}

const orderAnswer = ['주문에 성공했습니다.', '주문이 접수되었습니다. 결제 확인 후 진행됩니다.'];

async function logInThroughForm(password: string) {
  await page.getByLabel('비밀번호', { exact: true }).fill(password);
  await page.getByRole('button', { name: '로그인', exact: true }).click();
}

beforeAll(async () => {
  await phoneVerification(true);
  visit = await open();
  page = visit.page;
});

// A failed step leaves a picture of the screen it failed on: artifacts/failure-journey-<step>.png.
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(async () => {
    await shot(page, `failure-journey-${task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });
});

afterAll(async () => {
  await visit?.context.close();
  await disconnect();
  await phoneVerification(false);
});

describe.sequential('a member', () => {
  it('registers with phone verification', async () => {
    await page.goto('/register');
    await heading(page, '회원가입');
    await page.getByLabel('아이디', { exact: true }).fill(member.id);
    await page.getByLabel('이메일').fill(`${member.id}@example.com`);
    await page.getByLabel('비밀번호', { exact: true }).fill(member.password);
    await page.getByLabel('비밀번호 확인').fill(member.password);
    const where = page.getByLabel('가입 경로');
    await expect.poll(() => where.locator('option').count()).toBeGreaterThan(1);
    await where.selectOption({ index: 1 });

    // Phone verification is on: the number field shows, and a code must be sent first.
    const phoneField = page.getByLabel('휴대폰 번호');
    await phoneField.waitFor();
    await phoneField.fill(member.phone);
    await page.getByRole('button', { name: '가입하기' }).click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContain('휴대폰 인증번호를 먼저 전송해 주세요.');

    const send = page.getByRole('button', { name: '인증번호 전송' });
    await send.click();
    await expect.poll(() => toasts(page).allTextContents()).toContain('인증번호가 전송되었습니다.');
    // The resend waits for the server's cooldown, counting down on the button.
    expect(await page.getByRole('button', { name: /^재전송 \d+초$/ }).isDisabled()).toBe(true);
    const codeField = page.getByLabel('인증번호', { exact: true });
    await codeField.waitFor();
    await codeField.fill(await sentCode(member.phone));
    await page.getByRole('button', { name: '가입하기' }).click();
    await page.waitForURL('**/login');
    await expect.poll(() => toasts(page).allTextContents()).toContain('회원가입이 완료되었습니다. 로그인해 주세요.');
  });

  it('logs in with the id saved, and finds the id filled in after logging out and reloading', async () => {
    await heading(page, '로그인');
    await page.getByLabel('아이디', { exact: true }).fill(member.id);
    await page.getByLabel('아이디 저장').check();
    // A wrong password first: the spec's message, and the member stays on the form.
    await logInThroughForm('wrong-password');
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContain('아이디 또는 비밀번호가 올바르지 않습니다.');
    await logInThroughForm(member.password);
    await page.waitForURL('**/order');
    await expect.poll(() => toasts(page).allTextContents()).toContain('로그인되었습니다.');
    await expect.poll(() => navBalance().textContent()).toContain('0원');

    await navLink('로그아웃').click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/login');
    await page.reload();
    await heading(page, '로그인');
    expect(await page.getByLabel('아이디', { exact: true }).inputValue()).toBe(member.id);
    expect(await page.getByLabel('아이디 저장').isChecked()).toBe(true);
    await logInThroughForm(member.password);
    await page.waitForURL('**/order');
    await heading(page, '주문하기');
    // The account page shows the id read-only.
    await navLink('계정 설정').click();
    await heading(page, '계정 설정');
    const idField = page.getByLabel('아이디', { exact: true });
    expect(await idField.inputValue()).toBe(member.id);
    expect(await idField.getAttribute('readonly')).not.toBeNull();
  });

  it('asks for a 50,000-won top-up, reads the deposit instructions, and sees the balance once an operator approves it', async () => {
    await navLink('포인트 충전').click();
    await heading(page, '포인트 충전');
    const form = page.getByRole('form', { name: '충전 신청서' });
    // Spec §5: the depositor is required, the amount a non-zero multiple of 5,000.
    await form.getByRole('button', { name: '충전 신청하기' }).click();
    await expect.poll(() => page.getByRole('alert').count()).toBeGreaterThan(0);
    await form.getByRole('button', { name: '50,000원 더하기' }).click();
    await expect.poll(() => page.getByTestId('topup-amount').textContent()).toBe('50,000원');
    await form.getByLabel('입금자명').fill('홍길동');
    expect(await page.getByTestId('topup-transfer').textContent()).toBe('50,000원');
    await form.getByRole('button', { name: '충전 신청하기' }).click();

    const instructions = page.getByTestId('deposit-instructions');
    await instructions.waitFor();
    await expect.poll(() => toasts(page).allTextContents()).toContain('충전 신청이 접수되었습니다. 아래 입금 안내를 확인해 주세요.');
    const text = (await instructions.textContent()) ?? '';
    for (const expected of ['입금 안내', '국민은행', '123456-01-234567', '(주)그로우패널', '50,000원', '입금자명을 반드시 "홍길동"(으)로 입금해 주세요.']) expect(text).toContain(expected);
    // The history lists the request as waiting for the deposit.
    await expect.poll(rowsText).toMatch(/50,000원\s*입금 대기/);

    // The operator sees the deposit and approves the request (admin API).
    const token = await login(member.id, member.password);
    member.userId = (await api<{ userId: string }>('GET', '/auth/profile', { token })).body.userId;
    expect(await approvePendingTopUps(member.userId)).toHaveLength(1);
    await eventually(() => balanceDeci(token), (deci) => deci === 500_000, 20_000, 'credited balance');

    // No reload: the live channel brings the approval to the open page.
    await expect.poll(() => navBalance().textContent()).toContain('50,000원');
    await expect.poll(rowsText).toMatch(/50,000원\s*충전 완료/);
  });

  it('places a one-off order and finds it in the order history under the right filter chips', async () => {
    await navLink('주문하기').click();
    await heading(page, '주문하기');
    await expect.poll(() => page.getByLabel('상품 선택').locator('option:checked').textContent()).toContain('인스타그램 한국인 좋아요');
    // Spec §5: the link is checked before the amount.
    await orderForm().getByRole('button', { name: '주문하기' }).click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContain('링크를 입력해 주세요.');
    await page.getByLabel('주문 링크').fill('https://www.instagram.com/p/e2e-once');
    await page.getByLabel('수량', { exact: true }).fill('5');
    await orderForm().getByRole('button', { name: '주문하기' }).click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContain('최소 수량 미만입니다.');
    await page.getByLabel('수량', { exact: true }).fill('100');
    await expect.poll(() => page.getByTestId('total-price').textContent()).toBe('250원');
    await orderForm().getByRole('button', { name: '주문하기' }).click();

    await page.waitForURL('**/order-history');
    await heading(page, '주문 내역');
    await expect.poll(async () => (await toasts(page).allTextContents()).some((text) => orderAnswer.includes(text))).toBe(true);
    const row = await historyRow('e2e-once');
    expect(await row.count()).toBe(1);
    const cells = await row.locator('td').allTextContents();
    // order number, date, product, link, amount used, quantity, status, start quantity, remaining
    expect(cells.slice(2, 7)).toEqual(['인스타그램 한국인 좋아요', 'https://www.instagram.com/p/e2e-once', '250원', '100', '주문 접수']);
    expect(cells[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await expect.poll(() => navBalance().textContent()).toContain('49,750원');

    // Filter chips: one per order status, plus 전체.
    expect(await page.getByRole('group', { name: '상태 필터' }).getByRole('button').allTextContents()).toEqual(['전체', '주문 접수', '진행중', '완료', '부분 완료', '처리 대기', '취소(전액 환불)']);
    await chip('완료').click();
    await expect.poll(() => page.getByText('해당하는 주문이 없습니다.').isVisible()).toBe(true);
    expect(await chip('완료').getAttribute('aria-pressed')).toBe('true');
    await chip('주문 접수').click();
    await expect.poll(rowsText).toContain('e2e-once');
    await chip('전체').click();
    await expect.poll(() => table().count()).toBe(1);
  });

  it('places an auto order whose runs fire, and finds it completed in the auto-order history', async () => {
    await navLink('주문하기').click();
    await heading(page, '주문하기');
    await page.getByLabel('주문 링크').fill('https://www.instagram.com/p/e2e-auto');
    await page.getByLabel('수량', { exact: true }).fill('10');
    await page.getByLabel('자동 주문', { exact: true }).check();
    await page.getByLabel('반복 횟수').fill('2');
    await page.getByLabel('주문 간격(분)').fill('30');
    await orderForm().getByRole('button', { name: '주문하기' }).click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContain('주문 간격은 60분 이상이어야 합니다.');
    await page.getByLabel('주문 간격(분)').fill('60');
    expect(await page.getByLabel('총 수량').inputValue()).toBe('20');
    await expect.poll(() => page.getByTestId('total-price').textContent()).toBe('50원');
    await orderForm().getByRole('button', { name: '주문하기' }).click();

    await page.waitForURL('**/auto-order-history');
    await heading(page, '자동 주문 내역');
    await historyRow('e2e-auto');
    expect(await page.getByRole('group', { name: '상태 필터' }).getByRole('button').allTextContents()).toEqual(['전체', '진행중', '완료', '취소']);
    // One "minute" lasts 30 ms here: both runs fire within seconds, and the open screen follows them live.
    await expect.poll(rowsText, { timeout: 30_000, interval: 500 }).toMatch(/2\/2.*완료/s);
    const cells = await table().filter({ hasText: 'e2e-auto' }).locator('td').allTextContents();
    // order number, date, link, final amount, per run, product, runs, interval, final quantity, status
    expect(cells.slice(2, 10)).toEqual(['https://www.instagram.com/p/e2e-auto', '50원', '10', '인스타그램 한국인 좋아요', '2/2', '1시간', '20', '완료']);
    await chip('진행중').click();
    await expect.poll(() => page.getByText('해당하는 주문이 없습니다.').isVisible()).toBe(true);
    await chip('완료').click();
    await expect.poll(rowsText).toContain('e2e-auto');
    await chip('취소').click();
    await expect.poll(() => page.getByText('해당하는 주문이 없습니다.').isVisible()).toBe(true);

    // Each run is an order of its own in the order history.
    await navLink('주문 내역').click();
    await heading(page, '주문 내역');
    await expect.poll(() => table().filter({ hasText: 'e2e-auto' }).count()).toBe(2);
    await expect.poll(() => navBalance().textContent()).toContain('49,700원');
  });

  it('cancels an active auto order and gets the runs not placed back', async () => {
    // From the balance the member has now, so a retry of this step (CI) starts from its own figure.
    const token = await login(member.id, member.password);
    const before = await balanceDeci(token);
    await navLink('주문하기').click();
    await heading(page, '주문하기');
    await page.getByLabel('주문 링크').fill('https://www.instagram.com/p/e2e-cancel');
    await page.getByLabel('수량', { exact: true }).fill('10');
    await page.getByLabel('자동 주문', { exact: true }).check();
    await page.getByLabel('반복 횟수').fill('3');
    // 1,000 "minutes" = 30 s between runs here: the order stays active while it is cancelled.
    await page.getByLabel('주문 간격(분)').fill('1000');
    await expect.poll(() => page.getByTestId('total-price').textContent()).toBe('75원');
    await orderForm().getByRole('button', { name: '주문하기' }).click();
    await page.waitForURL('**/auto-order-history');
    await heading(page, '자동 주문 내역');
    const row = await historyRow('e2e-cancel');
    // The status cell (the row's 관리 cell says 취소 too, on its cancel button).
    const statusCell = async () => (await row.locator('td').allTextContents())[9];
    await expect.poll(statusCell).toBe('진행중');
    await row.getByRole('button', { name: /취소$/ }).click();
    const dialog = page.getByRole('dialog', { name: '자동 주문을 취소할까요?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: '자동 주문 취소' }).click();
    // The toast states the refund of the runs not placed (25원 a run): run 1 falls due at payment,
    // so it may or may not be placed before the cancel.
    await expect.poll(async () => (await toasts(page).allTextContents()).join('\n')).toMatch(/자동 주문을 취소했습니다\. (25|50|75)원이 포인트로 환불됩니다\./);
    const refund = Number(/취소했습니다\. (\d+)원/.exec((await toasts(page).allTextContents()).join('\n'))![1]);
    // The list re-read after the cancel: cancelled, its button gone, the runs placed beside the refund.
    await expect.poll(statusCell).toBe('취소');
    await expect.poll(() => row.getByRole('button', { name: /취소$/ }).count()).toBe(0);
    const done = (await row.locator('td').allTextContents())[6] ?? '';
    expect(done).toMatch(/^[01]\/3$/);
    expect(refund).toBe(25 * (3 - Number(done.split('/')[0])));
    await chip('취소').click();
    await expect.poll(rowsText).toContain('e2e-cancel');
    // Paid 75원 for three runs, refunded the ones not placed.
    const expected = before / 10 - 75 + refund;
    await eventually(() => balanceDeci(token), (deci) => deci === expected * 10, 20_000, 'refunded balance');
    // The wallet credits the refund a moment after the cancel answers: the live channel brings it to the open page.
    await expect.poll(() => navBalance().textContent()).toContain(`${expected.toLocaleString('ko-KR')}원`);
  });

  it('orders again after the connection dropped under the answer: the order placed first is the one, charged once', async () => {
    const token = await login(member.id, member.password);
    const before = await balanceDeci(token);
    await navLink('주문하기').click();
    await heading(page, '주문하기');
    await page.getByLabel('주문 링크').fill('https://www.instagram.com/p/e2e-dropped');
    await page.getByLabel('수량', { exact: true }).fill('10');
    // The order reaches the panel and is placed; its answer never reaches the browser.
    await page.route('**/api/service/order', async (route) => {
      await route.fetch();
      await route.abort('connectionreset');
    }, { times: 1 });
    await orderForm().getByRole('button', { name: '주문하기' }).click();
    await expect.poll(async () => (await toasts(page).allTextContents()).join('\n')).toContain('주문에 실패했습니다.');
    expect(page.url()).toMatch(/\/order$/);
    // The member tries again: the same order, under the same key, is answered — not placed twice.
    await orderForm().getByRole('button', { name: '주문하기' }).click();
    await page.waitForURL('**/order-history');
    const row = await historyRow('e2e-dropped');
    expect(await row.count()).toBe(1);
    await eventually(() => balanceDeci(token), (deci) => deci === before - 250, 20_000, 'one debit');
    await new Promise((r) => setTimeout(r, 1000));
    expect(await balanceDeci(token)).toBe(before - 250);
  });

  it('changes the password and is logged out', async () => {
    await navLink('계정 설정').click();
    await heading(page, '계정 설정');
    const change = page.getByRole('button', { name: '비밀번호 변경' });
    await page.getByLabel('현재 비밀번호').fill('not-my-password');
    await page.getByLabel('새 비밀번호', { exact: true }).fill(member.newPassword);
    await page.getByLabel('새 비밀번호 확인').fill('something-else');
    await change.click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContain('새 비밀번호 확인이 일치하지 않습니다.');
    await page.getByLabel('새 비밀번호 확인').fill(member.newPassword);
    await change.click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContain('현재 비밀번호가 다릅니다.');
    await page.getByLabel('현재 비밀번호').fill(member.password);
    await change.click();
    await page.waitForURL('**/login');
    await expect.poll(() => toasts(page).allTextContents()).toContain('비밀번호가 변경되었습니다. 다시 로그인해 주세요.');
    expect(await page.getByTestId('nav-balance').count()).toBe(0);
    expect(await page.evaluate(() => window.localStorage.getItem('smm.token'))).toBeNull();

    // The old password no longer works; the new one does.
    await heading(page, '로그인');
    await page.getByLabel('아이디', { exact: true }).fill(member.id);
    await logInThroughForm(member.password);
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContain('아이디 또는 비밀번호가 올바르지 않습니다.');
    await logInThroughForm(member.newPassword);
    await page.waitForURL('**/order');
    await expect.poll(() => navBalance().textContent()).toMatch(/49,\d{3}원/);
    expect(visit.errors).toEqual([]);
  });
});
