// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it } from 'vitest';
import { type ReferralSummary, ReferralEarnings, referralsPath } from '../src/features/account/ReferralEarnings.tsx';

const summary: ReferralSummary = {
  ratePercent: 5,
  memberCount: 2,
  members: [
    { loginId: 'bo***', registeredAt: '2026-11-20T01:00:00.000Z' },
    { loginId: 'ca***', registeredAt: '2026-11-19T01:00:00.000Z' },
  ],
  earningsDeci: 1500,
  earnings: 150,
  history: {
    page: 1,
    pageSize: 10,
    hasNext: true,
    items: [
      { createdAt: '2026-11-21T03:00:00.000Z', kind: 'reversal', member: 'bo***', amountDeci: 300, point: 30, sourceDeci: 10_000, ratePercent: 5, shortfallDeci: 200 },
      { createdAt: '2026-11-20T03:00:00.000Z', kind: 'credit', member: 'bo***', amountDeci: 2000, point: 200, sourceDeci: 40_000, ratePercent: 5, shortfallDeci: 0 },
    ],
  },
};
const second: ReferralSummary = { ...summary, history: { page: 2, pageSize: 10, hasNext: false, items: [{ createdAt: '2026-11-18T03:00:00.000Z', kind: 'credit', member: 'ca***', amountDeci: 125, point: 12.5, sourceDeci: 2500, ratePercent: 5, shortfallDeci: 0 }] } };

function renderSection(fallback: Record<string, unknown>) {
  return render(
    // The fetcher answers what the BFF would for each page; the first page is there at once.
    <SWRConfig value={{ provider: () => new Map(), fallback: { [referralsPath(1)]: fallback[referralsPath(1)] }, fetcher: (path: string) => Promise.resolve(fallback[path]) }}>
      <ReferralEarnings />
    </SWRConfig>,
  );
}

describe('account page: referral earnings', () => {
  afterEach(cleanup);

  it('shows the rate, the masked referred members, the net earnings and each credit and reversal', async () => {
    renderSection({ [referralsPath(1)]: summary, [referralsPath(2)]: second });
    expect(screen.getByTestId('referral-rate').textContent).toBe('5%');
    expect(screen.getByTestId('referral-count').textContent).toBe('2명');
    expect(screen.getByTestId('referral-earnings').textContent).toBe('150원');
    const members = within(screen.getByRole('list', { name: '추천한 회원' })).getAllByRole('listitem').map((li) => li.textContent);
    expect(members).toEqual(['bo***', 'ca***']);
    const rows = within(screen.getByRole('list', { name: '적립 내역' })).getAllByRole('listitem').map((li) => li.textContent);
    expect(rows[0]).toContain('환불 1,000원에 따른 회수');
    expect(rows[0]).toContain('−30원');
    expect(rows[0]).toContain('이미 사용한 20원은 다음 적립금에서 차감됩니다.');
    expect(rows[0]).toContain('2026-11-21 12:00:00 · bo***');
    expect(rows[1]).toContain('완료된 주문 4,000원의 5% 적립');
    expect(rows[1]).toContain('+200원');

    fireEvent.click(screen.getByRole('button', { name: '다음' }));
    await screen.findByText('+12.5원');
    const page2 = within(screen.getByRole('list', { name: '적립 내역' })).getAllByRole('listitem').map((li) => li.textContent);
    expect(page2).toHaveLength(1);
    expect(page2[0]).toContain('+12.5원');
    expect((screen.getByRole('button', { name: '다음' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says so when nobody signed up with the code yet', () => {
    renderSection({ [referralsPath(1)]: { ...summary, memberCount: 0, members: [], earningsDeci: 0, history: { page: 1, hasNext: false, items: [] } } });
    expect(screen.getByText('아직 추천으로 가입한 회원이 없습니다.')).toBeTruthy();
    expect(screen.getByText('아직 적립 내역이 없습니다.')).toBeTruthy();
    expect(screen.getByTestId('referral-earnings').textContent).toBe('0원');
    expect(screen.queryByRole('button', { name: '다음' })).toBeNull();
  });
});
