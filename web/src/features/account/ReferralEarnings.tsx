import type { ReferralSummaryBody } from '@smm/contracts/http';
import { useState } from 'react';
import useSWR from 'swr';
import { messageOf } from '../../lib/api.ts';
import { dateTime, won } from '../../lib/format.ts';
import { pagedKey } from '../../lib/paged-keys.ts';
import * as ui from '../../ui/ui.css.ts';
import { referralText as t } from './referral-messages.ts';

/** What `GET /api/auth/referrals` answers (wallet's view, login ids already masked). */
export type ReferralSummary = ReferralSummaryBody;

export const referralsPath = (page: number) => pagedKey('/auth/referrals', page, null, 10);

const stat = { display: 'flex', flexDirection: 'column', gap: 2, minWidth: 96, flex: '1 1 96px' } as const;
// The chip look without the button behaviour: a member is a label, not a control.
const memberChip = { display: 'inline-flex', alignItems: 'center', cursor: 'default' } as const;
const listItem = { display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 12, padding: '10px 0', borderTop: '1px solid var(--referral-line, rgba(127,127,127,0.25))' } as const;

/** The referred members, the earnings and their history (spec issue #17 "Referrals that pay"). */
export function ReferralEarnings() {
  const [page, setPage] = useState(1);
  const { data, error } = useSWR<ReferralSummary>(referralsPath(page), { keepPreviousData: true });
  return (
    <section className={ui.card} aria-labelledby="referral-earnings-title">
      <h2 id="referral-earnings-title" className={ui.cardTitle}>{t.title}</h2>
      {error && !data ? (
        <p className={ui.errorText} role="alert">{messageOf(error, t.loadFailed)}</p>
      ) : !data ? (
        <p className={ui.muted}>{t.loading}</p>
      ) : (
        <div className={ui.stack}>
          <p className={ui.hint}>{t.lead(data.ratePercent)}</p>
          <div className={ui.row} style={{ gap: 16 }}>
            <div style={stat}><span className={ui.hint}>{t.rate}</span><strong data-testid="referral-rate">{data.ratePercent}%</strong></div>
            <div style={stat}><span className={ui.hint}>{t.members}</span><strong data-testid="referral-count">{t.memberCount(data.memberCount)}</strong></div>
            <div style={stat}><span className={ui.hint}>{t.earnings}</span><strong data-testid="referral-earnings">{won(data.earningsDeci)}</strong></div>
          </div>
          <div>
            <h3 className={ui.label} style={{ marginBottom: 8 }}>{t.members}</h3>
            {data.members.length === 0 ? (
              <p className={ui.muted}>{t.membersNone}</p>
            ) : (
              <ul className={ui.chips} aria-label={t.members} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {data.members.map((m, i) => (
                  <li key={`${m.loginId}-${i}`} className={ui.chip} style={memberChip} title={dateTime(m.registeredAt)}>{m.loginId}</li>
                ))}
                {data.memberCount > data.members.length && <li className={ui.muted}>{t.moreMembers(data.memberCount - data.members.length)}</li>}
              </ul>
            )}
          </div>
          <div>
            <h3 className={ui.label} style={{ marginBottom: 4 }}>{t.history}</h3>
            {data.history.items.length === 0 ? (
              <p className={ui.muted}>{t.historyNone}</p>
            ) : (
              <ul aria-label={t.history} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {data.history.items.map((h, i) => (
                  <li key={`${h.createdAt}-${i}`} style={listItem}>
                    <div style={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
                      <span style={{ fontWeight: 600 }}>{h.kind === 'credit' ? t.credit(h.sourceDeci, h.ratePercent) : t.reversal(h.sourceDeci)}</span>
                      <span className={ui.hint}>{dateTime(h.createdAt)} · {h.member}</span>
                      {h.shortfallDeci > 0 && <span className={ui.hint}>{t.shortfall(h.shortfallDeci)}</span>}
                    </div>
                    <strong className={ui.num} style={{ whiteSpace: 'nowrap' }}>{h.kind === 'credit' ? '+' : '−'}{won(h.amountDeci)}</strong>
                  </li>
                ))}
              </ul>
            )}
            {(page > 1 || data.history.hasNext) && (
              <div className={ui.pager}>
                <button type="button" className={`${ui.button.secondary} ${ui.small}`} disabled={page <= 1} onClick={() => setPage(page - 1)}>{t.prev}</button>
                <span className={ui.hint}>{page}</span>
                <button type="button" className={`${ui.button.secondary} ${ui.small}`} disabled={!data.history.hasNext} onClick={() => setPage(page + 1)}>{t.next}</button>
              </div>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
