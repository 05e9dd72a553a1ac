import { useId, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import useSWR from 'swr';
import { messageOf, post } from '../../../lib/api.ts';
import { ticketLimits } from '../../../lib/contracts.ts';
import { count, dateTime } from '../../../lib/format.ts';
import { AutoOrderStatus, OrderStatus } from '../../../lib/statuses.ts';
import { useToast } from '../../../ui/toast.tsx';
import { TicketStatusBadge, TicketThread, categoryLabel } from '../../../ui/ticket-status.tsx';
import * as ui from '../../../ui/ui.css.ts';
import { useSubmitOnce } from '../../../ui/use-submit-once.ts';
import * as s from '../admin.css.ts';
import { supportAdminText as t } from './messages.ts';
import type { AdminTicket, SavedReply } from './types.ts';

/**
 * One ticket in the console (issue 40): the member and the linked orders, the thread as plain
 * text, an answer (optionally started from a saved reply), close and reopen. Support refuses an
 * operator's own ticket (SELF_ACTION) and the message says so.
 */
export default function SupportTicketPage() {
  const { id } = useParams();
  const key = id && /^\d{1,10}$/.test(id) ? `/admin/support/tickets/${id}` : null;
  const ticket = useSWR<AdminTicket>(key, { refreshInterval: 10_000 });
  const replies = useSWR<{ items: SavedReply[] }>('/admin/support/saved-replies');
  const toast = useToast();
  const ids = { reply: useId(), saved: useId() };
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const act = useSubmitOnce();
  const data = ticket.data;

  const run = (path: string, payload: unknown, done: string, after?: () => void) =>
    act.run(async () => {
      setError(null);
      try {
        const updated = await post<AdminTicket>(`/admin/support/tickets/${id}/${path}`, payload);
        await ticket.mutate(updated, { revalidate: false });
        after?.();
        toast.success(done);
      } catch (caught) {
        setError(messageOf(caught, path === 'replies' ? t.sendFailed : t.actionFailed));
      }
    });

  if (key === null || (ticket.error && !data)) {
    return (
      <>
        <Link to="/admin/support" className={ui.link}>
          {t.back}
        </Link>
        <p className={ui.callout} role="alert">
          {messageOf(ticket.error, t.notFound)}
        </p>
      </>
    );
  }
  if (!data) return <div aria-busy="true" />;

  return (
    <>
      <Link to="/admin/support" className={ui.link}>
        {t.back}
      </Link>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle} style={{ overflowWrap: 'anywhere' }}>
          #{data.id} {data.title}
        </h1>
      </header>
      <section className={ui.card}>
        <dl className={s.details}>
          <dt className={s.detailKey}>{t.member}</dt>
          <dd className={s.detailValue}>
            <Link to={`/admin/members/${data.userId}`} className={ui.link}>
              {data.loginId ?? data.userId}
            </Link>
          </dd>
          <dt className={s.detailKey}>{t.category}</dt>
          <dd className={s.detailValue}>{categoryLabel(data.category)}</dd>
          <dt className={s.detailKey}>{t.status}</dt>
          <dd className={s.detailValue}>
            <TicketStatusBadge status={data.status} />
          </dd>
          <dt className={s.detailKey}>{t.createdAt}</dt>
          <dd className={s.detailValue}>{dateTime(data.createdAt)}</dd>
          <dt className={s.detailKey}>{t.orders}</dt>
          <dd className={s.detailValue} data-testid="ticket-orders">
            {data.orders === null ? (
              <span className={ui.muted}>{t.ordersUnavailable}</span>
            ) : data.orders.length === 0 ? (
              <span className={ui.muted}>{t.noOrders}</span>
            ) : (
              <ul className={s.list}>
                {data.orders.map((o) => (
                  <li key={o.id}>
                    <span>{t.orderLine(o.id, o.serviceText, count(o.amount))}</span>{' '}
                    <span className={ui.badge.neutral}>{o.status === null ? '—' : o.kind === 'auto' ? AutoOrderStatus.label(o.status) : OrderStatus.label(o.status)}</span>
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </dl>
      </section>
      <TicketThread messages={data.messages} mine="operator" who={(m) => (m.author === 'member' ? t.memberAuthor(data.loginId) : t.operatorAuthor(m.authorLoginId))} label={t.thread} testId="console-thread" />
      {data.status === 'closed' ? (
        <section className={ui.card}>
          <div className={ui.stack}>
            <p className={ui.muted}>{t.closedNote}</p>
            {error && (
              <p className={ui.errorText} role="alert">
                {error}
              </p>
            )}
            <div>
              <button type="button" className={ui.button.secondary} disabled={act.busy} onClick={() => void run('reopen', {}, t.reopened)}>
                {t.reopen}
              </button>
            </div>
          </div>
        </section>
      ) : (
        <form
          className={`${ui.card} ${ui.stack}`}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void run('replies', { body }, t.sent, () => setBody(''));
          }}
        >
          <div className={ui.field}>
            <label htmlFor={ids.saved} className={ui.label}>
              {t.savedReply}
            </label>
            <select
              id={ids.saved}
              className={ui.input}
              value=""
              onChange={(e) => {
                const picked = replies.data?.items.find((r) => String(r.id) === e.target.value);
                if (picked) setBody((current) => (current.trim() === '' ? picked.body : `${current}\n${picked.body}`));
              }}
            >
              <option value="">{t.pickSavedReply}</option>
              {replies.data?.items.map((r) => (
                <option key={r.id} value={String(r.id)}>
                  {r.title}
                </option>
              ))}
            </select>
          </div>
          <div className={ui.field}>
            <label htmlFor={ids.reply} className={ui.label}>
              {t.reply}
            </label>
            <textarea id={ids.reply} className={ui.textarea} rows={5} value={body} maxLength={ticketLimits.bodyMax} placeholder={t.replyPlaceholder} onChange={(e) => setBody(e.target.value)} />
          </div>
          {error && (
            <p className={ui.errorText} role="alert">
              {error}
            </p>
          )}
          <div className={s.actions} style={{ justifyContent: 'flex-end' }}>
            <button type="button" className={ui.button.danger} disabled={act.busy} onClick={() => void run('close', {}, t.closed)}>
              {t.close}
            </button>
            <button type="submit" className={ui.button.primary} disabled={act.busy}>
              {t.send}
            </button>
          </div>
        </form>
      )}
    </>
  );
}
