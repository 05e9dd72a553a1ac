import { afterAll, describe, expect, it } from 'vitest';
import { newMember } from './support/api.ts';
import { disconnect, heading, open } from './support/browser.ts';

afterAll(disconnect);

/**
 * How a page loads (issue 17: the first paint on a slow phone): the page the BFF answers for a route
 * names its screen's code, so the browser fetches it with the entry; the first reads (settings,
 * profile, the screen's data) are started by the build's early script before the entry has run, and
 * the app takes them instead of asking again.
 */
describe('opening a member page', () => {
  it("fetches the screen's code with the entry, and its first reads once, before the app has run", async () => {
    const member = await newMember();
    const visit = await open({ token: member.token });
    const cdp = await visit.context.newCDPSession(visit.page);
    await cdp.send('Network.enable');
    const sent: Array<{ url: URL; by: string }> = [];
    cdp.on('Network.requestWillBeSent', (e) => {
      sent.push({ url: new URL(e.request.url), by: e.initiator.stack?.callFrames[0]?.url ?? e.initiator.url ?? e.initiator.type });
    });
    await visit.page.goto('/order-history');
    await heading(visit.page, '주문 내역');
    await visit.page.getByText('해당하는 주문이 없습니다.').first().waitFor();

    const asked = (path: string) => sent.filter((s) => s.url.pathname + s.url.search === path);
    for (const read of ['/api/auth/profile', '/api/service/settings', '/api/service/order-history?page=1&pageSize=20']) {
      expect(asked(read), read).toHaveLength(1);
      expect(asked(read)[0]?.by, read).toMatch(/\/assets\/early-[0-9a-f]+\.js$/);
    }
    // The screen's chunk is named by the page itself (a preload the parser found), not by the entry.
    const chunk = sent.filter((s) => /\/assets\/OrderHistoryPage-[\w-]+\.js$/.test(s.url.pathname));
    expect(chunk).toHaveLength(1);
    expect(chunk[0]?.by).toMatch(/\/order-history$|^parser$/);
    expect(visit.errors).toEqual([]);
    await visit.context.close();
  });
});
