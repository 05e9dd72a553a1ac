import type { AdminMemberRowBody } from '@smm/contracts/http';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import useSWR from 'swr';
import { restrictionLevelLabels } from '../../../lib/contracts.ts';
import { dateTime } from '../../../lib/format.ts';
import type { Page } from '../../../lib/types.ts';
import { Pager } from '../../../ui/paging.tsx';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { adminText as t } from '../messages.ts';
import { restrictionBadge } from './RestrictionCard.tsx';
import { ListState } from '../ListState.tsx';
import { MemberRanking } from './MemberRanking.tsx';

/** One row of GET /api/admin/members, relayed as auth sends it (@smm/contracts/http). */
type MemberRow = AdminMemberRowBody;
const roleText = (role: string) => (role === 'admin' ? t.roleAdmin : role === 'staff' ? t.roleStaff : t.roleMember);
const pageSize = 20;

/** Issue 12: find a member by login id, e-mail or phone (server-side, prefix search). */
export default function MembersPage() {
  const field = useId();
  const [input, setInput] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const query = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (q !== '') query.set('q', q);
  const list = useSWR<Page<MemberRow>>(`/admin/members?${query.toString()}`, { keepPreviousData: true });
  const rows = list.data?.items ?? [];
  const search = (event: FormEvent) => {
    event.preventDefault();
    setQ(input.trim());
    setPage(1);
  };
  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.members}</h1>
        <p className={ui.pageLead}>{t.membersLead}</p>
      </header>
      <form className={s.search} role="search" onSubmit={search}>
        <label htmlFor={field} className="sr-only">
          {t.memberSearch}
        </label>
        <input id={field} className={`${ui.input} ${s.searchInput}`} style={{ width: 280 }} value={input} placeholder={t.memberSearchPlaceholder} onChange={(e) => setInput(e.target.value)} />
        <button type="submit" className={`${ui.button.secondary} ${ui.small}`}>
          {t.search}
        </button>
      </form>
      <div className={ui.tableWrap}>
        <table className={`${ui.table} ${s.table}`} aria-label={t.members} aria-busy={list.isLoading}>
          <thead>
            <tr>
              <th className={ui.th}>{t.memberColumns.loginId}</th>
              <th className={ui.th}>{t.memberColumns.email}</th>
              <th className={ui.th}>{t.memberColumns.phone}</th>
              <th className={ui.th}>{t.memberColumns.role}</th>
              <th className={ui.th}>{t.memberColumns.createdAt}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((m) => (
              <tr key={m.userId}>
                <td className={ui.td}>
                  <Link className={ui.link} to={`/admin/members/${m.userId}`}>
                    {m.loginId}
                  </Link>
                  {m.restrictionLevel && (
                    <>
                      {' '}
                      <span className={restrictionBadge(m.restrictionLevel)}>{restrictionLevelLabels[m.restrictionLevel]}</span>
                    </>
                  )}
                </td>
                <td className={ui.td}>{m.email ?? '—'}</td>
                <td className={ui.td}>{m.phoneNumber ?? '—'}</td>
                <td className={ui.td}>
                  <span className={m.role === 'member' ? ui.badge.neutral : ui.badge.primary}>{roleText(m.role)}</span>
                </td>
                <td className={ui.td}>{dateTime(m.createdAt).slice(0, 10)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <ListState list={list} rows={rows.length} emptyText={t.membersEmpty} failedText={t.loadFailed} />
      </div>
      <Pager page={page} hasNext={list.data?.hasNext ?? false} onPage={setPage} label={t.members} />
      <MemberRanking />
    </>
  );
}
