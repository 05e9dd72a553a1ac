import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, api, asAdmin, fund, newMember, placeOrder, serviceNamed } from './support/api.ts';
import { type Theme, type Viewport, type Visit, desktop, disconnect, heading, open, phone, shot, toasts } from './support/browser.ts';

afterAll(disconnect);

const wide: Viewport = { width: 1280, height: 900 };
const slow = 40_000;
const poll = { timeout: slow };
const xss = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';

/**
 * Support tickets (issue 40) end to end: a member opens a ticket in the browser, an operator
 * answers it in the console from a saved reply, and the member's open page shows the unread mark
 * and the answer live, with no reload. Text that looks like markup stays text.
 */
describe('1:1 문의: member ↔ operator', () => {
  let member: Member;
  let other: Member;
  let orderId: number;
  let othersOrderId: number;
  let ticketId: number;
  let memberVisit: Visit;
  let operatorVisit: Visit;
  const mainMenu = () => memberVisit.page.getByRole('navigation', { name: '주 메뉴', exact: true });

  beforeAll(async () => {
    [member, other] = await Promise.all([newMember(), newMember()]);
    const likes = await serviceNamed('인스타그램 한국인 좋아요');
    await Promise.all([fund(member, 10_000), fund(other, 10_000)]);
    orderId = (await placeOrder(member, { serviceId: likes.id, link: 'https://instagram.com/p/support-e2e', amount: likes.min })).id;
    othersOrderId = (await placeOrder(other, { serviceId: likes.id, link: 'https://instagram.com/p/not-mine', amount: likes.min })).id;
    const saved = await api('POST', '/admin/support/saved-replies', { token: await asAdmin(), body: { title: `주문 시작 안내 ${Date.now()}`, body: '주문이 곧 시작됩니다. 조금만 기다려 주세요.' } });
    expect(saved.status).toBe(201);
  });
  afterAll(async () => {
    await memberVisit?.context.close();
    await operatorVisit?.context.close();
  });

  it('the member opens a ticket from the form: another member’s order is refused in Korean, then the ticket is made with markup shown as text', async () => {
    // Wider than 1280 px, where the menu is inline rather than behind the menu button.
    memberVisit = await open({ token: member.token, viewport: desktop });
    const { page } = memberVisit;
    // The machine is shared and busy: a first console or chunk load may take a while.
    page.setDefaultTimeout(slow);
    await page.goto('/order');
    await mainMenu().getByRole('link', { name: '1:1 문의' }).click();
    await heading(page, '1:1 문의');
    await page.getByRole('button', { name: '새 문의' }).click();
    const form = page.getByRole('form', { name: '새 문의' });
    await form.getByLabel('문의 유형').selectOption('order');
    await form.getByLabel('제목').fill('주문이 시작되지 않아요 <b>급함</b>');
    await form.getByLabel('내용', { exact: true }).fill(`어제 넣은 주문입니다.\n${xss}`);
    await form.getByLabel('관련 주문번호 (선택)').fill(`${orderId}, ${othersOrderId}`);
    await form.getByRole('button', { name: '문의 남기기' }).click();
    await expect.poll(async () => (await form.getByRole('alert').textContent()) ?? '', poll).toContain(`#${othersOrderId}`);
    expect((await api<{ items: unknown[] }>('GET', '/support/tickets', { token: member.token })).body.items).toEqual([]);
    await shot(page, 'support-form-error-1440-light', { fullPage: false });

    await form.getByLabel('관련 주문번호 (선택)').fill(String(orderId));
    await form.getByRole('button', { name: '문의 남기기' }).click();
    await page.waitForURL(/\/support\/\d+$/);
    ticketId = Number(new URL(page.url()).pathname.split('/').pop());
    const thread = page.getByTestId('thread');
    await expect.poll(async () => (await thread.textContent()) ?? '', poll).toContain(xss);
    expect(await thread.locator('img, script').count()).toBe(0);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('주문이 시작되지 않아요 <b>급함</b>');
    expect(await page.textContent('body')).toContain(`#${orderId}`);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    // Back to the list, where the answer will arrive.
    await page.getByRole('link', { name: '← 문의 목록' }).click();
    await page.getByTestId(`ticket-${ticketId}`).waitFor();
  });

  it('the operator sees it in the queue with the member and the order, and answers from a saved reply; the member sees the mark and the answer live', async () => {
    operatorVisit = await open({ token: await asAdmin(), viewport: wide });
    const op = operatorVisit.page;
    op.setDefaultTimeout(slow);
    await op.goto('/admin/support');
    await heading(op, '1:1 문의').catch(async (error: unknown) => {
      await shot(op, 'support-debug-operator', { fullPage: false }).catch(() => undefined);
      throw new Error(`${String(error)} at ${op.url()}: ${(await op.textContent('body'))?.slice(0, 400)} ${operatorVisit.errors.join(' ')}`);
    });
    const row = op.getByTestId(`queue-${ticketId}`);
    await expect.poll(async () => (await row.textContent()) ?? '', poll).toContain(member.id);
    await row.getByRole('link', { name: `#${ticketId}` }).click();
    await op.getByTestId('console-thread').waitFor();
    expect(await op.getByTestId('ticket-orders').textContent()).toContain(`#${orderId}`);
    expect(await op.getByTestId('console-thread').locator('img, script').count()).toBe(0);
    const saved = op.getByLabel('저장된 답변 넣기');
    const option = await saved.locator('option').filter({ hasText: '주문 시작 안내' }).first().getAttribute('value');
    await saved.selectOption(option!);
    await expect.poll(() => op.getByLabel('답변', { exact: true }).inputValue(), poll).toBe('주문이 곧 시작됩니다. 조금만 기다려 주세요.');
    await op.getByRole('button', { name: '답변 보내기' }).click();
    await expect.poll(async () => (await op.getByTestId('console-thread').textContent()) ?? '', poll).toContain('운영자 admin');

    // The member's list page, never reloaded: the mark in the menu, the dot on the ticket, a notice.
    const { page } = memberVisit;
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await expect.poll(async () => (await mainMenu().getByTestId('support-unread').textContent().catch(() => '')) ?? '', poll).toBe('1');
    await expect.poll(async () => (await toasts(page).allTextContents()).join('\n'), poll).toContain(`문의 #${ticketId}에 답변이 도착했습니다.`);
    expect(await page.getByTestId(`ticket-${ticketId}`).getByRole('img', { name: '새 답변' }).count()).toBe(1);
    await shot(page, 'support-list-unread-1440-light', { fullPage: false });

    // Opening it shows the answer and puts the mark out.
    await page.getByTestId(`ticket-${ticketId}`).click();
    await expect.poll(async () => (await page.getByTestId('thread').textContent()) ?? '', poll).toContain('주문이 곧 시작됩니다.');
    await expect.poll(() => mainMenu().getByTestId('support-unread').count(), poll).toBe(0);

    // With the thread open, a second answer appears in it live.
    await op.getByLabel('답변', { exact: true }).fill('시작되었습니다. 확인해 보세요!');
    await op.getByRole('button', { name: '답변 보내기' }).click();
    await expect.poll(async () => (await page.getByTestId('thread').textContent()) ?? '', poll).toContain('시작되었습니다. 확인해 보세요!');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(memberVisit.errors).toEqual([]);
    expect(operatorVisit.errors).toEqual([]);
  });

  it('another member cannot open the ticket’s page', async () => {
    const visit = await open({ token: other.token, viewport: wide });
    await visit.page.goto(`/support/${ticketId}`);
    await expect.poll(async () => (await visit.page.getByRole('alert').textContent()) ?? '', poll).toContain('문의를 찾을 수 없습니다.');
    expect(await visit.page.textContent('body')).not.toContain('주문이 곧 시작됩니다.');
    await visit.context.close();
  });

  // Concurrent (at most maxConcurrency pages at once): the four are independent; `check` is the test's own expect.
  it.concurrent.for([
    [wide, 'light'],
    [wide, 'dark'],
    [phone, 'light'],
    [phone, 'dark'],
  ] as Array<[Viewport, Theme]>)('screenshots at %o in the %s theme', async ([viewport, theme], { expect: check }) => {
    const size = viewport.width;
    const m = await open({ token: member.token, viewport, theme, mobile: size < 500 });
    // Four pages at once on a shared, busy machine: a first load may take a while (as above).
    m.page.setDefaultTimeout(slow);
    await m.page.goto('/support');
    await m.page.getByTestId(`ticket-${ticketId}`).waitFor();
    await shot(m.page, `support-list-${size}-${theme}`);
    await m.page.goto(`/support/${ticketId}`);
    await m.page.getByTestId('thread').waitFor();
    await shot(m.page, `support-thread-${size}-${theme}`);
    check(m.errors).toEqual([]);
    await m.context.close();
    const o = await open({ token: await asAdmin(), viewport, theme, mobile: size < 500 });
    o.page.setDefaultTimeout(slow);
    await o.page.goto('/admin/support?');
    await o.page.getByRole('button', { name: '전체' }).click();
    await o.page.getByTestId(`queue-${ticketId}`).waitFor();
    await shot(o.page, `support-console-queue-${size}-${theme}`);
    await o.page.goto(`/admin/support/${ticketId}`);
    await o.page.getByTestId('console-thread').waitFor();
    await shot(o.page, `support-console-ticket-${size}-${theme}`);
    check(o.errors).toEqual([]);
    await o.context.close();
  });
});
