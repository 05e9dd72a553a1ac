import { type FormEvent, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import useSWR from 'swr';
import type { Page } from '../../../lib/types.ts';
import { type TicketStatus, ticketCategories, ticketCategoryLabels, ticketStatusLabels } from '../../../lib/contracts.ts';
import { dateTime } from '../../../lib/format.ts';
import { FilterChips, Pager } from '../../../ui/paging.tsx';
import * as ui from '../../../ui/ui.css.ts';
import { TicketStatusBadge, categoryLabel } from '../../../ui/ticket-status.tsx';
import * as s from '../admin.css.ts';
import { ConsoleTable } from '../ConsoleTable.tsx';
import { supportAdminText as t } from './messages.ts';
import type { AdminTicketRow } from './types.ts';

type Filters = { loginId: string; orderId: string; ticketId: string; category: string };
const noFilters: Filters = { loginId: '', orderId: '', ticketId: '', category: '' };
const statusOptions: ReadonlyArray<{ value: TicketStatus | null; label: string }> = [
  { value: 'open', label: ticketStatusLabels.open },
  { value: 'answered', label: ticketStatusLabels.answered },
  { value: 'closed', label: ticketStatusLabels.closed },
  { value: null, label: t.all },
];

/** The operators' ticket queue (issue 40): waiting ones first, filters, one click to the thread. */
export default function SupportQueuePage() {
  const ids = { loginId: useId(), orderId: useId(), ticketId: useId(), category: useId() };
  const navigate = useNavigate();
  const [status, setStatus] = useState<TicketStatus | null>('open');
  const [draft, setDraft] = useState<Filters>(noFilters);
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [page, setPage] = useState(1);
  const query = new URLSearchParams({ page: String(page), pageSize: '30' });
  if (status) query.set('status', status);
  for (const [key, value] of Object.entries(filters)) if (value.trim() !== '') query.set(key, value.trim().replace(/^#/, ''));
  const list = useSWR<Page<AdminTicketRow>>(`/admin/support/tickets?${query.toString()}`, { keepPreviousData: true, refreshInterval: 15_000 });
  const rows = list.data?.items ?? [];

  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    setPage(1);
  };
  const field = (key: 'loginId' | 'orderId' | 'ticketId', id: string, label: string, width: number) => (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input id={id} className={`${ui.input} ${s.searchInput}`} style={{ width }} placeholder={label} value={draft[key]} onChange={(e) => setDraft({ ...draft, [key]: e.target.value })} />
    </>
  );

  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.title}</h1>
        <p className={ui.pageLead}>{t.lead}</p>
        <p>
          <Link to="/admin/support/replies" className={ui.link}>
            {t.manageReplies}
          </Link>
        </p>
      </header>
      <section className={ui.card}>
        <div className={s.filters}>
          <form className={s.filterRow} role="search" onSubmit={search}>
            {field('ticketId', ids.ticketId, t.ticketIdFilter, 110)}
            {field('loginId', ids.loginId, t.loginIdFilter, 150)}
            {field('orderId', ids.orderId, t.orderIdFilter, 110)}
            <label htmlFor={ids.category} className="sr-only">
              {t.categoryFilter}
            </label>
            <select id={ids.category} className={`${ui.input} ${s.searchInput}`} style={{ width: 140 }} value={draft.category} onChange={(e) => setDraft({ ...draft, category: e.target.value })}>
              <option value="">{t.allCategories}</option>
              {ticketCategories.map((c) => (
                <option key={c} value={c}>
                  {ticketCategoryLabels[c]}
                </option>
              ))}
            </select>
            <button type="submit" className={`${ui.button.secondary} ${ui.small}`}>
              {t.search}
            </button>
          </form>
          <div className={s.filterRow}>
            <span className={s.filterLabel}>{t.statusFilter}</span>
            <FilterChips
              label={t.statusFilter}
              options={statusOptions}
              value={status}
              onChange={(v) => {
                setStatus(v);
                setPage(1);
              }}
            />
          </div>
        </div>
      </section>
      <ConsoleTable
        label={t.queue}
        list={list}
        rows={rows.length}
        emptyText={t.empty}
        failedText={t.loadFailed}
        columns={[t.columns.ticket, t.columns.member, t.columns.category, t.columns.title, t.columns.status, t.columns.last]}
      >
        {rows.map((ticket) => (
          <tr key={ticket.id} data-testid={`queue-${ticket.id}`} style={{ cursor: 'pointer' }} onClick={() => navigate(`/admin/support/${ticket.id}`)}>
            <td className={ui.td}>
              <Link to={`/admin/support/${ticket.id}`} className={ui.link}>
                #{ticket.id}
              </Link>
            </td>
            <td className={ui.td}>{ticket.loginId ?? '—'}</td>
            <td className={ui.td}>{categoryLabel(ticket.category)}</td>
            <td className={ui.tdWrap}>
              <span className={s.twoLines}>
                <span style={{ overflowWrap: 'anywhere' }}>{ticket.title}</span>
                {ticket.orderIds.length > 0 && <span className={s.sub}>{ticket.orderIds.map((o) => `#${o}`).join(', ')}</span>}
              </span>
            </td>
            <td className={ui.td}>
              <TicketStatusBadge status={ticket.status} />
            </td>
            <td className={ui.td}>{dateTime(ticket.lastMessageAt)}</td>
          </tr>
        ))}
      </ConsoleTable>
      <Pager page={page} hasNext={list.data?.hasNext ?? false} onPage={setPage} label={t.queue} />
    </>
  );
}
