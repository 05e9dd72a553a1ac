// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../src/auth/auth.tsx';
import { awaitingOrderState } from '../src/features/history/await-order.ts';
import OrderHistoryPage from '../src/features/history/OrderHistoryPage.tsx';
import { swrConfig } from '../src/lib/swr.ts';

const order = { id: 'o9', createdAt: '2026-11-22T09:00:00Z', serviceId: 's1', serviceText: '한국인 좋아요', link: 'https://x.com/p', point: 25, pointDeci: 250, amount: 100, status: 0, startCount: null, remains: null };
const profile = (pointDeci: number) => ({ id: 'm1', point: pointDeci / 10, pointDeci, apiKey: null, referralCode: null });

/** The history lists the order from the `listedFrom`-th read on; the balance drops once it is listed. */
function backend(listedFrom: number) {
  let reads = 0;
  return vi.fn(async (url: string) => {
    if (url.endsWith('/auth/profile')) return new Response(JSON.stringify(profile(reads >= listedFrom ? 750 : 1000)), { status: 200 });
    reads += 1;
    const items = reads >= listedFrom ? [order] : [];
    return new Response(JSON.stringify({ items, page: 1, pageSize: 20, hasNext: false }), { status: 200 });
  });
}
const historyReads = (fetch: ReturnType<typeof backend>) => fetch.mock.calls.filter(([url]) => String(url).includes('/service/order-history')).length;
const profileReads = (fetch: ReturnType<typeof backend>) => fetch.mock.calls.filter(([url]) => String(url).endsWith('/auth/profile')).length;

function StateProbe() {
  return <output data-testid="state">{JSON.stringify(useLocation().state)}</output>;
}

function renderHistory(fetch: ReturnType<typeof backend>, state: unknown) {
  vi.stubGlobal('fetch', fetch);
  return render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <MemoryRouter initialEntries={[{ pathname: '/order-history', state }]}>
        <AuthProvider>
          <Routes>
            <Route path="/order-history" element={<><OrderHistoryPage /><StateProbe /></>} />
          </Routes>
        </AuthProvider>
      </MemoryRouter>
    </SWRConfig>,
  );
}

describe('order history after a payment-pending (202) order', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    localStorage.setItem('smm.token', 'member-token');
    localStorage.setItem('smm.authMode', 'authorized');
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('re-reads the list every second until the order shows, refreshes the balance, then stops', async () => {
    const fetch = backend(4); // read 1 on opening, then 1 s, 2 s: not yet; 3 s: listed
    renderHistory(fetch, awaitingOrderState('o9'));
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(historyReads(fetch)).toBe(1);
    expect(screen.queryByText('한국인 좋아요')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(screen.getByText('한국인 좋아요')).toBeTruthy();
    const profilesWhenFound = profileReads(fetch);
    expect(profilesWhenFound).toBeGreaterThanOrEqual(2); // the first load and the refresh once it is listed
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(historyReads(fetch)).toBe(4);
    expect(screen.getByTestId('state').textContent).toBe('null'); // a reload does not poll again
  });

  it('gives up after 10 s when the order never shows, and does not poll without the state', async () => {
    const never = backend(Number.POSITIVE_INFINITY);
    renderHistory(never, awaitingOrderState('o9'));
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(historyReads(never)).toBe(11);
    cleanup();

    const plain = backend(1);
    renderHistory(plain, null);
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(historyReads(plain)).toBe(1);
  });
});
