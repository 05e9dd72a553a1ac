// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SWRConfig, unstable_serialize } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../src/auth/auth.tsx';
import { orderText as t } from '../src/features/order/messages.ts';
import OrderPage from '../src/features/order/OrderPage.tsx';
import { ToastProvider } from '../src/ui/toast.tsx';

const platforms = [
  { id: 1, text: '인스타그램', visible: true, background: '#E1306C' },
  { id: 2, text: '유튜브', visible: true, background: '#FF0000' },
  { id: 8, text: '카카오스토리', visible: false, background: '#FFCD00' },
];
const categories = [
  { id: 'c1', text: '좋아요', platformId: 1 },
  { id: 'c2', text: '팔로워', platformId: 1 },
  { id: 'c3', text: '조회수', platformId: 2 },
];
const svc = (id: string, categoryId: string, text: string, min: number, max: number, unitPriceDeci: number, enableAuto = true, isReadOnly = false) => ({
  id, text, categoryId, min, max, point: unitPriceDeci / 10, unitPriceDeci, notice: `${text} 안내`, enableAuto, isReadOnly,
});
const services = [
  svc('s1', 'c1', '한국인 좋아요', 10, 1000, 25),
  svc('s2', 'c2', '한국인 팔로워', 20, 500, 450, false),
  svc('s3', 'c3', '유튜브 조회수', 100, 100000, 35),
  svc('s4', 'c3', '시청 시간', 100, 4000, 950, false, true),
];
const token = 'member-token';
const profile = { id: 'member1', point: 100, pointDeci: 1000, apiKey: null, referralCode: null };

/** A fetch double: the profile revalidation gets the profile, POST /service/order gets `order`. */
function backend(order: () => Response = () => new Response('{}', { status: 500 })) {
  return vi.fn(async (url: string) => (url.endsWith('/auth/profile') ? new Response(JSON.stringify(profile), { status: 200 }) : order()));
}
const orderCalls = (fetch: ReturnType<typeof backend>) => fetch.mock.calls.filter(([url]) => String(url).endsWith('/service/order'));

function HistoryProbe() {
  return <p data-state={JSON.stringify(useLocation().state)}>주문 내역 화면</p>;
}

function renderOrder(fetch = backend(), fetcher: (key: unknown) => Promise<unknown> = () => new Promise(() => {})) {
  vi.stubGlobal('fetch', fetch);
  return render(
    <SWRConfig
      value={{
        provider: () => new Map(),
        fallback: {
          '/service/platforms': platforms,
          '/service/categorys': categories,
          '/service/services': services,
          '/service/notices': [{ content: '일반 공지', isTop: false }, { content: '중요 공지', isTop: true }],
          '/service/settings': [],
          [unstable_serialize(['/auth/profile', token])]: profile,
        },
        fetcher,
      }}
    >
      <MemoryRouter initialEntries={['/order']}>
        <ToastProvider>
          <AuthProvider>
            <Routes>
              <Route path="/order" element={<OrderPage />} />
              <Route path="/order-history" element={<HistoryProbe />} />
              <Route path="/auto-order-history" element={<p>자동 주문 내역 화면</p>} />
            </Routes>
          </AuthProvider>
        </ToastProvider>
      </MemoryRouter>
    </SWRConfig>,
  );
}

const select = (label: string) => screen.getByLabelText(label) as HTMLSelectElement;
const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const submit = () => fireEvent.click(screen.getByRole('button', { name: t.submit }));

describe('order screen', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem('smm.token', token);
    localStorage.setItem('smm.authMode', 'authorized');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows top notices first and only visible platforms', async () => {
    renderOrder();
    const items = await screen.findAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['중요 공지', '일반 공지']);
    expect(screen.getByRole('button', { name: /인스타그램/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /카카오스토리/ })).toBeNull();
  });

  it('starts on the first platform, category and product with amount = min; a new platform resets them', async () => {
    renderOrder();
    await waitFor(() => expect(select(t.step2).value).toBe('s1'));
    expect(select(t.step1).value).toBe('c1');
    expect(input(t.step5).value).toBe('10');
    expect(screen.getByTestId('product-notice').textContent).toBe('한국인 좋아요 안내');

    fireEvent.change(input(t.step5), { target: { value: '300' } });
    fireEvent.click(screen.getByRole('checkbox', { name: t.auto }));
    fireEvent.click(screen.getByRole('button', { name: /유튜브/ }));
    expect(select(t.step1).value).toBe('c3');
    expect(select(t.step2).value).toBe('s3');
    expect(input(t.step5).value).toBe('100');
    expect((screen.getByRole('checkbox', { name: t.auto }) as HTMLInputElement).checked).toBe(false);
  });

  it('lists the price per unit with each product and totals unit × amount × runs', async () => {
    renderOrder();
    await waitFor(() => expect(select(t.step2).value).toBe('s1'));
    expect(screen.getByRole('option', { name: /한국인 좋아요 — 1개당 2.5원/ })).toBeTruthy();
    fireEvent.change(input(t.step5), { target: { value: '100' } });
    expect(screen.getByTestId('total-price').textContent).toBe('250원');
    fireEvent.click(screen.getByRole('checkbox', { name: t.auto }));
    expect(input(t.runs).value).toBe('0');
    fireEvent.change(input(t.runs), { target: { value: '3' } });
    expect(input(t.totalQuantity).value).toBe('300');
    expect(screen.getByTestId('total-price').textContent).toBe('750원');
  });

  it('reports the first broken rule in the spec’s order and sends nothing', async () => {
    const fetch = backend();
    renderOrder(fetch);
    await waitFor(() => expect(select(t.step2).value).toBe('s1'));
    submit();
    expect((await screen.findAllByText(t.linkRequired)).length).toBeGreaterThan(0);
    fireEvent.change(input(t.step4), { target: { value: 'https://www.instagram.com/p/x' } });
    fireEvent.change(input(t.step5), { target: { value: '5' } });
    submit();
    expect((await screen.findAllByText(t.belowMin)).length).toBeGreaterThan(0);
    fireEvent.change(input(t.step5), { target: { value: '1000' } });
    submit(); // 2.5 won × 1,000 = 2,500 won > 100 won balance
    expect((await screen.findAllByText(t.insufficient)).length).toBeGreaterThan(0);
    expect(orderCalls(fetch)).toEqual([]);
  });

  it('disables the inputs and the button for a read-only product', async () => {
    renderOrder();
    fireEvent.click(await screen.findByRole('button', { name: /유튜브/ }));
    fireEvent.change(select(t.step2), { target: { value: 's4' } });
    expect(input(t.step4).disabled).toBe(true);
    expect((screen.getByRole('button', { name: t.submit }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(t.readOnly)).toBeTruthy();
  });

  it('posts the order and goes to the order history after success', async () => {
    const fetch = backend(() => new Response(JSON.stringify({ outcome: 'accepted', order: { id: 1, kind: 'order' } }), { status: 201 }));
    renderOrder(fetch);
    await waitFor(() => expect(select(t.step2).value).toBe('s1'));
    fireEvent.change(input(t.step4), { target: { value: 'https://www.instagram.com/p/x' } });
    fireEvent.change(input(t.step5), { target: { value: '40' } });
    submit();
    expect(await screen.findByText('주문 내역 화면')).toBeTruthy();
    const [url, init] = orderCalls(fetch)[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/service/order');
    expect(JSON.parse(String(init.body))).toEqual({ serviceId: 's1', link: 'https://www.instagram.com/p/x', amount: 40, runs: 0, interval: 0, unitPriceDeci: 25 });
  });

  it('after a 202 (payment pending) answer, says the payment is awaited and goes to the history', async () => {
    const fetch = backend(() => new Response(JSON.stringify({ outcome: 'awaiting_payment', order: { id: 'o7', kind: 'order' } }), { status: 202 }));
    renderOrder(fetch);
    await waitFor(() => expect(select(t.step2).value).toBe('s1'));
    fireEvent.change(input(t.step4), { target: { value: 'https://www.instagram.com/p/x' } });
    fireEvent.change(input(t.step5), { target: { value: '40' } });
    submit();
    await screen.findByText('주문 내역 화면');
    expect(await screen.findByText(t.awaiting)).toBeTruthy();
  });

  it('sends the same order again under its Idempotency-Key after an answer that never came, and a refused one under a new key', async () => {
    const answers = [
      () => Promise.reject(new TypeError('Failed to fetch')), // the connection broke: placed or not, unknown
      () => Promise.resolve(new Response(JSON.stringify({ code: 'INSUFFICIENT_POINTS', message: '포인트가 부족합니다.' }), { status: 402 })),
      () => Promise.resolve(new Response(JSON.stringify({ outcome: 'accepted', order: { id: 1, kind: 'order' } }), { status: 201 })),
    ];
    const fetch = vi.fn(async (url: string) => (url.endsWith('/auth/profile') ? new Response(JSON.stringify(profile), { status: 200 }) : answers.shift()!()));
    renderOrder(fetch as unknown as ReturnType<typeof backend>);
    await waitFor(() => expect(select(t.step2).value).toBe('s1'));
    fireEvent.change(input(t.step4), { target: { value: 'https://www.instagram.com/p/x' } });
    fireEvent.change(input(t.step5), { target: { value: '40' } });
    const keyOf = (n: number) => new Headers((orderCalls(fetch as unknown as ReturnType<typeof backend>)[n] as unknown as [string, RequestInit])[1].headers).get('idempotency-key');
    submit();
    await waitFor(() => expect(answers).toHaveLength(2));
    await waitFor(() => expect((screen.getByRole('button', { name: t.submit }) as HTMLButtonElement).disabled).toBe(false));
    submit();
    await waitFor(() => expect(answers).toHaveLength(1));
    await waitFor(() => expect((screen.getByRole('button', { name: t.submit }) as HTMLButtonElement).disabled).toBe(false));
    submit();
    expect(await screen.findByText('주문 내역 화면')).toBeTruthy();
    expect(keyOf(0)).toMatch(/^[0-9a-f]{32}$/);
    expect(keyOf(1)).toBe(keyOf(0));
    expect(keyOf(2)).toMatch(/^[0-9a-f]{32}$/);
    expect(keyOf(2)).not.toBe(keyOf(1));
  });

  it('on 409 PRICE_CHANGED stays on the form, says so and reads the prices again', async () => {
    const body = { code: 'PRICE_CHANGED', message: '가격이 변경되었습니다. 확인 후 다시 주문해 주세요.' };
    const fetch = backend(() => new Response(JSON.stringify(body), { status: 409 }));
    const fetcher = vi.fn((_key: unknown) => new Promise<unknown>(() => {}));
    renderOrder(fetch, fetcher);
    await waitFor(() => expect(select(t.step2).value).toBe('s1'));
    fireEvent.change(input(t.step4), { target: { value: 'https://www.instagram.com/p/x' } });
    fireEvent.change(input(t.step5), { target: { value: '40' } });
    const readsBefore = fetcher.mock.calls.filter(([key]) => key === '/service/services').length;
    submit();
    expect(await screen.findByText(`${t.failed} ${body.message}`)).toBeTruthy();
    await waitFor(() => expect(fetcher.mock.calls.filter(([key]) => key === '/service/services').length).toBeGreaterThan(readsBefore));
    expect(screen.queryByText('주문 내역 화면')).toBeNull();
  });
});
