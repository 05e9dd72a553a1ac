// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider, useAuth } from '../src/auth/auth.tsx';

function Balance() {
  const auth = useAuth();
  return (
    <>
      <output data-testid="balance">{auth.profile?.pointDeci ?? '-'}</output>
      <button type="button" onClick={() => auth.followBalance()}>follow</button>
    </>
  );
}

/** The wallet credits the refund only on the third read of the profile after the action. */
function wallet(creditOnRead: number) {
  let reads = 0;
  return vi.fn(async (url: string) => {
    if (!url.endsWith('/auth/profile')) return new Response('{}', { status: 404 });
    reads += 1;
    const pointDeci = reads >= creditOnRead ? 3500 : 1000;
    return new Response(JSON.stringify({ id: 'm1', point: pointDeci / 10, pointDeci, apiKey: null, referralCode: null }), { status: 200 });
  });
}

describe('followBalance (the balance after a cancel or a payment-pending order)', () => {
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

  it('re-reads the profile now and a moment later until the balance moves, then stops', async () => {
    const fetch = wallet(3); // read 1: first load; read 2: right after the action; read 3: at 1 s
    vi.stubGlobal('fetch', fetch);
    render(
      <SWRConfig value={{ provider: () => new Map() }}>
        <AuthProvider>
          <Balance />
        </AuthProvider>
      </SWRConfig>,
    );
    expect((await screen.findByText('1000')).textContent).toBe('1000');
    fireEvent.click(screen.getByRole('button', { name: 'follow' }));
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId('balance').textContent).toBe('1000');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByTestId('balance').textContent).toBe('3500');
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(fetch).toHaveBeenCalledTimes(3);
  });
});
