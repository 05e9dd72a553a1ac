// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it } from 'vitest';
import QnaPage from '../src/features/qna/QnaPage.tsx';

const qnas = [
  { id: 1, title: '주문은 언제 시작되나요?', answer: '평균 10분~1시간 안에 시작됩니다.' },
  { id: 2, title: '환불은 어떻게 받나요?', answer: '포인트로 돌려드립니다.' },
];

function renderPage() {
  return render(
    <SWRConfig value={{ provider: () => new Map(), fallback: { '/service/qnas': qnas }, fetcher: () => new Promise(() => {}) }}>
      <QnaPage />
    </SWRConfig>,
  );
}

describe('FAQ screen (spec §2: accordion, one open at a time)', () => {
  afterEach(cleanup);

  it('opens one answer at a time and closes the open one on a second click', () => {
    renderPage();
    const first = screen.getByRole('button', { name: /주문은 언제/ });
    const second = screen.getByRole('button', { name: /환불은 어떻게/ });
    expect(first.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(first);
    expect(first.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('region', { name: /주문은 언제/ }).textContent).toContain('평균 10분');

    fireEvent.click(second);
    expect(first.getAttribute('aria-expanded')).toBe('false');
    expect(second.getAttribute('aria-expanded')).toBe('true');

    fireEvent.click(second);
    expect(second.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('region')).toBeNull();
  });
});
