// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../src/auth/auth.tsx';
import OrderHistoryPage, { OrderStatusBadge } from '../src/features/history/OrderHistoryPage.tsx';
import type { OrderItem } from '../src/lib/types.ts';
import { swrConfig } from '../src/lib/swr.ts';
import { ToastProvider } from '../src/ui/toast.tsx';

// Rows as order's `/orders` sends them (the contract's OrderViewBody).
const base = {
  kind: 'order',
  userId: 'm1',
  createdAt: '2026-11-22T09:00:00Z',
  link: 'https://x.com/p',
  linkUrl: 'https://x.com/p',
  point: 25,
  pointDeci: 250,
  amount: 100,
  startCount: null,
  remains: 0,
  autoOrderId: null,
  run: null,
  payment: 'paid',
  refundedDeci: 0,
  source: 'web',
  reason: null,
} as const;
const orders = [
  { ...base, id: 11, serviceId: 1, serviceText: '리필 되는 상품', status: 2 },
  { ...base, id: 12, serviceId: 1, serviceText: '취소 되는 주문', status: 0 },
  { ...base, id: 13, serviceId: 2, serviceText: '수동 상품', status: 2 },
  { ...base, id: 14, serviceId: 1, serviceText: '거부된 주문', status: 5, reason: '공급처가 링크 또는 수량을 받지 않아 주문이 취소되고 전액 환불되었습니다.' },
] satisfies OrderItem[];

function backend() {
  return vi.fn(async (url: string, init?: RequestInit) => {
    if (url.endsWith('/auth/profile')) return new Response(JSON.stringify({ id: 'm1', point: 100, pointDeci: 1000, apiKey: null, referralCode: null }), { status: 200 });
    if (url.endsWith('/service/fulfillment-flags')) return new Response(JSON.stringify([{ productId: 1, refill: true, cancel: true }]), { status: 200 });
    if (url.endsWith('/service/orders/11/refill') && init?.method === 'POST') return new Response(JSON.stringify({ refill: 3, orderId: 11, status: 'Pending' }), { status: 201 });
    if (url.endsWith('/service/orders/12/cancel') && init?.method === 'POST') {
      return new Response(JSON.stringify({ code: 'CANCEL_NOT_PENDING', message: '시작 전(주문 접수) 상태의 주문만 취소할 수 있습니다.' }), { status: 409 });
    }
    return new Response(JSON.stringify({ items: orders, page: 1, pageSize: 20, hasNext: false }), { status: 200 });
  });
}

describe('order history refill and cancel', () => {
  beforeEach(() => {
    localStorage.setItem('smm.token', 'member-token');
    localStorage.setItem('smm.authMode', 'authorized');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('offers refill on completed and cancel on pending orders of products that take them, and shows why an order was canceled', async () => {
    const fetch = backend();
    vi.stubGlobal('fetch', fetch);
    render(
      <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
        <MemoryRouter initialEntries={['/order-history']}>
          <AuthProvider>
            <ToastProvider>
              <OrderHistoryPage />
            </ToastProvider>
          </AuthProvider>
        </MemoryRouter>
      </SWRConfig>,
    );
    // The history renders a table (wide screens) and cards (phones) from the same rows: read the table.
    const table = within(await screen.findByRole('table'));
    expect(await table.findByRole('button', { name: '주문 11 리필' })).toBeTruthy();
    expect(table.getByRole('button', { name: '주문 12 주문 취소' })).toBeTruthy();
    expect(table.queryByRole('button', { name: '주문 13 리필' })).toBeNull(); // its product has no provider refill
    expect(table.getByText('공급처가 링크 또는 수량을 받지 않아 주문이 취소되고 전액 환불되었습니다.')).toBeTruthy();

    await act(async () => fireEvent.click(table.getByRole('button', { name: '주문 11 리필' })));
    expect(fetch.mock.calls.some(([url, init]) => String(url).endsWith('/service/orders/11/refill') && init?.method === 'POST')).toBe(true);
    expect(await screen.findByText('리필을 요청했습니다.')).toBeTruthy();

    await act(async () => fireEvent.click(table.getByRole('button', { name: '주문 12 주문 취소' })));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('주문을 취소할까요?');
    const confirm = [...dialog.querySelectorAll('button')].find((b) => b.textContent === '주문 취소')!;
    await act(async () => fireEvent.click(confirm));
    expect(await screen.findByText('시작 전(주문 접수) 상태의 주문만 취소할 수 있습니다.')).toBeTruthy();
  });

  it('shows the payment state of an order that has no status yet, and the status once it has one', () => {
    const { container } = render(
      <>
        <OrderStatusBadge order={{ status: null, payment: 'awaiting_payment' }} />
        <OrderStatusBadge order={{ status: null, payment: 'rejected' }} />
        <OrderStatusBadge order={{ status: 2, payment: 'paid' }} />
      </>,
    );
    expect([...container.querySelectorAll('span')].map((s) => s.textContent)).toEqual(['결제 확인 중', '결제 거절', '완료']);
  });
});
