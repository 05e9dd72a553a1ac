import type { RankedMemberPageBody } from '@smm/contracts/http';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import useSWR from 'swr';
import { count, won } from '../../../lib/format.ts';
import { Pager } from '../../../ui/paging.tsx';
import * as ui from '../../../ui/ui.css.ts';
import { ConsoleTable } from '../ConsoleTable.tsx';
import { adminText as a } from '../messages.ts';
import { profitText as t } from '../profit/messages.ts';
import * as p from '../profit/profit.css.ts';

type Sort = 'spent' | 'refunded' | 'orders';
const pageSize = 20;

/** Issue 41: members ranked by net spend, refunds or orders; a column heading changes the order. */
export function MemberRanking() {
  const [sort, setSort] = useState<Sort>('spent');
  const [page, setPage] = useState(1);
  const list = useSWR<RankedMemberPageBody>(`/admin/member-rankings?sort=${sort}&page=${page}&pageSize=${pageSize}`, { keepPreviousData: true });
  const rows = list.data?.items ?? [];
  const heading = (key: Sort, label: string) => ({
    num: true,
    label: (
      <button
        type="button"
        className={p.sortButton}
        aria-pressed={sort === key}
        onClick={() => {
          setSort(key);
          setPage(1);
        }}
      >
        {label}
        {sort === key ? ' ↓' : ''}
      </button>
    ),
  });
  return (
    <section className={ui.card} aria-labelledby="ranking-title" data-testid="member-ranking">
      <h2 id="ranking-title" className={ui.cardTitle}>
        {t.rankingTitle}
      </h2>
      <p className={`${ui.muted} ${p.note}`}>{t.rankingLead}</p>
      <ConsoleTable
        label={t.rankingTitle}
        list={list}
        rows={rows.length}
        columns={[a.memberColumns.loginId, heading('orders', t.totalsOrders), { label: t.totalsCharged, num: true }, heading('refunded', t.totalsRefunded), heading('spent', t.totalsNet)]}
        emptyText={t.rankingEmpty}
        failedText={a.loadFailed}
      >
        {rows.map((m) => (
          <tr key={m.userId}>
            <td className={ui.td}>
              <Link className={ui.link} to={`/admin/members/${m.userId}`}>
                {m.loginId ?? t.unknownMember}
              </Link>
            </td>
            <td className={`${ui.td} ${ui.num}`}>{count(m.orders)}</td>
            <td className={`${ui.td} ${ui.num}`}>{won(m.chargedDeci)}</td>
            <td className={`${ui.td} ${ui.num}`}>{won(m.refundedDeci)}</td>
            <td className={`${ui.td} ${ui.num}`}>{won(m.chargedDeci - m.refundedDeci)}</td>
          </tr>
        ))}
      </ConsoleTable>
      <Pager page={page} hasNext={list.data?.hasNext ?? false} onPage={setPage} label={t.rankingTitle} />
    </section>
  );
}
