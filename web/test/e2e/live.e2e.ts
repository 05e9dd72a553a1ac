import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, api, approvePendingTopUps, asAdmin, fund, newMember, placeOrder, serviceNamed } from './support/api.ts';
import { type Visit, disconnect, heading, open, toasts } from './support/browser.ts';

afterAll(disconnect);

/**
 * The live channel end to end: the member's page stays open (a marker set in the page proves it is
 * never reloaded) while an operator and the services change things through their APIs.
 */
describe('live updates on an open member page', () => {
  let member: Member;
  let visit: Visit;
  const navBalance = () => visit.page.getByTestId('nav-balance').first();
  const stillTheSamePage = () => visit.page.evaluate(() => (window as unknown as { liveMarker?: number }).liveMarker === 1);

  beforeAll(async () => {
    member = await newMember();
    visit = await open({ token: member.token });
    await visit.page.goto('/point');
    await heading(visit.page, '포인트 충전');
    await visit.page.evaluate(() => ((window as unknown as { liveMarker: number }).liveMarker = 1));
    // The stream is open once the ticket was bought and the server said ready.
    await visit.page.waitForResponse((res) => res.url().includes('/api/live?ticket='), { timeout: 15_000 }).catch(() => undefined);
  });
  afterAll(() => visit?.context.close());

  it('shows a top-up the operator approves, with no reload', async () => {
    expect(await navBalance().textContent()).toContain('0원');
    const asked = await api('POST', '/service/point', { token: member.token, body: { name: '홍길동', point: 15_000, feeType: 'none', feeValue: null } });
    expect(asked).toMatchObject({ status: 201 });
    await approvePendingTopUps(member.userId);
    await expect.poll(async () => navBalance().textContent(), { timeout: 10_000 }).toContain('15,000원');
    await expect.poll(async () => (await visit.page.getByRole('table').first().textContent()) ?? '').toContain('충전 완료');
    expect(await stillTheSamePage()).toBe(true);
  });

  it('updates the order history and says so when an order completes', async () => {
    const likes = await serviceNamed('인스타그램 한국인 좋아요');
    await fund(member, 10_000);
    await visit.page.getByRole('navigation', { name: '주 메뉴', exact: true }).getByRole('link', { name: '주문 내역', exact: true }).click();
    await heading(visit.page, '주문 내역');
    const order = await placeOrder(member, { serviceId: likes.id, link: 'https://instagram.com/p/live-e2e', amount: likes.min });
    const row = visit.page.getByRole('row').filter({ hasText: 'live-e2e' });
    await row.first().waitFor({ timeout: 10_000 });
    const admin = await asAdmin();
    const moved = await api('PATCH', `/admin/orders/${order.id}`, { token: admin, body: { status: 2 } });
    expect(moved.status).toBe(200);
    await expect.poll(async () => (await row.first().textContent()) ?? '', { timeout: 10_000 }).toContain('완료');
    await expect.poll(async () => (await toasts(visit.page).allTextContents()).join('\n'), { timeout: 10_000 }).toContain(`주문 #${order.id}`);
    expect(await stillTheSamePage()).toBe(true);
    expect(visit.errors).toEqual([]);
  });

  it('closes the stream while the page is hidden and, shown again, catches up on what happened meanwhile', async () => {
    const before = (await navBalance().textContent()) ?? '';
    const visibility = (hidden: boolean) =>
      visit.page.evaluate((h) => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
    await visibility(true);
    const asked = await api('POST', '/service/point', { token: member.token, body: { name: '홍길동', point: 5_000, feeType: 'none', feeValue: null } });
    expect(asked).toMatchObject({ status: 201 });
    await approvePendingTopUps(member.userId);
    // Hidden: no stream and no polling, so the page has not heard of it.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await navBalance().textContent()).toBe(before);
    const reopened = visit.page.waitForResponse((res) => res.url().includes('/api/live?ticket='), { timeout: 15_000 });
    await visibility(false);
    expect((await reopened).url()).toContain('lastEventId=');
    const after = `${(Number(before.replace(/[^\d]/g, '')) + 5_000).toLocaleString('ko-KR')}원`;
    await expect.poll(async () => (await navBalance().textContent()) ?? '', { timeout: 10_000 }).toContain(after);
    expect(await stillTheSamePage()).toBe(true);
    expect(visit.errors).toEqual([]);
  });
});
