import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import type { TicketDetailBody, TicketSummaryBody } from '@smm/contracts/http';
import { messageOf, post } from '../../lib/api.ts';
import { type TicketCategory, ticketCategories, ticketCategoryLabels, ticketLimits } from '../../lib/contracts.ts';
import { dateTime } from '../../lib/format.ts';
import { Pager, usePaged } from '../../ui/paging.tsx';
import { useToast } from '../../ui/toast.tsx';
import { useSubmitOnce } from '../../ui/use-submit-once.ts';
import * as ui from '../../ui/ui.css.ts';
import { supportText as t } from './messages.ts';
import * as s from './support.css.ts';
import { TicketStatusBadge, categoryLabel } from '../../ui/ticket-status.tsx';

/** The member's tickets, newest first, and the form for a new one (issue 40). */
export default function SupportPage() {
  const [page, setPage] = useState(1);
  const [writing, setWriting] = useState(false);
  const list = usePaged<TicketSummaryBody>('/support/tickets', page);
  const items = list.data?.items ?? [];
  return (
    <div className={ui.page} style={{ maxWidth: 860 }}>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.title}</h1>
        <p className={ui.pageLead}>{t.lead}</p>
      </header>
      {writing ? (
        <NewTicket onDone={() => setWriting(false)} />
      ) : (
        <div>
          <button type="button" className={ui.button.primary} onClick={() => setWriting(true)}>
            {t.newTicket}
          </button>
        </div>
      )}
      <section aria-label={t.listLabel} className={ui.stack}>
        {list.error && !list.data && <p className={ui.callout} role="alert">{messageOf(list.error, t.loadFailed)}</p>}
        {list.data && items.length === 0 && <p className={ui.empty}>{t.empty}</p>}
        <ul className={s.list}>
          {items.map((ticket) => (
            <li key={ticket.id}>
              <Link to={`/support/${ticket.id}`} className={s.item} data-testid={`ticket-${ticket.id}`}>
                <span className={s.itemTop}>
                  {ticket.unread && <span className={s.dot} role="img" aria-label={t.unread} />}
                  <span className={s.itemTitle}>{ticket.title}</span>
                  <TicketStatusBadge status={ticket.status} />
                </span>
                <span className={s.meta}>
                  <span>{t.ticketNo(ticket.id)}</span>
                  <span>{categoryLabel(ticket.category)}</span>
                  <span>{t.messages(ticket.messageCount)}</span>
                  <span>
                    {t.lastAt} {dateTime(ticket.lastMessageAt)}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
        <Pager page={page} hasNext={list.data?.hasNext ?? false} onPage={setPage} label={t.listLabel} />
      </section>
    </div>
  );
}

function NewTicket({ onDone }: { onDone(): void }) {
  const ids = { category: useId(), title: useId(), body: useId(), orders: useId(), error: useId() };
  const [category, setCategory] = useState<TicketCategory>('order');
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [orders, setOrders] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { busy, run } = useSubmitOnce();
  const navigate = useNavigate();
  const toast = useToast();
  const { mutate } = useSWRConfig();

  const submit = () =>
    run(async () => {
      setError(null);
      try {
        const created = await post<TicketDetailBody>('/support/tickets', { category, title, body, orderIds: orders });
        toast.success(t.created);
        await mutate((key) => typeof key === 'string' && key.startsWith('/support/'));
        onDone();
        navigate(`/support/${created.id}`);
      } catch (caught) {
        setError(messageOf(caught, t.createFailed));
      }
    });

  return (
    <form
      className={`${ui.card} ${ui.stack}`}
      aria-label={t.newTicket}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 className={ui.cardTitle}>{t.newTicket}</h2>
      <div className={s.formGrid}>
        <div className={ui.field}>
          <label htmlFor={ids.category} className={ui.label}>
            {t.category}
          </label>
          <select id={ids.category} className={ui.input} value={category} onChange={(e) => setCategory(e.target.value as TicketCategory)}>
            {ticketCategories.map((c) => (
              <option key={c} value={c}>
                {ticketCategoryLabels[c]}
              </option>
            ))}
          </select>
        </div>
        <div className={ui.field}>
          <label htmlFor={ids.title} className={ui.label}>
            {t.subject}
          </label>
          <input id={ids.title} className={ui.input} value={title} maxLength={ticketLimits.titleMax} placeholder={t.subjectPlaceholder} onChange={(e) => setTitle(e.target.value)} />
        </div>
      </div>
      <div className={ui.field}>
        <label htmlFor={ids.body} className={ui.label}>
          {t.body}
        </label>
        <textarea id={ids.body} className={ui.textarea} rows={6} value={body} maxLength={ticketLimits.bodyMax} placeholder={t.bodyPlaceholder} onChange={(e) => setBody(e.target.value)} aria-describedby={error ? ids.error : undefined} />
        <span className={s.counter}>{t.count([...body].length, ticketLimits.bodyMax)}</span>
      </div>
      <div className={ui.field}>
        <label htmlFor={ids.orders} className={ui.label}>
          {t.orders}
        </label>
        <input id={ids.orders} className={ui.input} value={orders} inputMode="numeric" placeholder={t.ordersPlaceholder} onChange={(e) => setOrders(e.target.value)} />
        <span className={ui.hint}>{t.ordersHint}</span>
      </div>
      {error && (
        <p id={ids.error} className={ui.errorText} role="alert">
          {error}
        </p>
      )}
      <div className={s.actions}>
        <button type="button" className={ui.button.ghost} onClick={onDone}>
          {t.cancel}
        </button>
        <button type="submit" className={ui.button.primary} disabled={busy}>
          {busy ? t.submitting : t.submit}
        </button>
      </div>
    </form>
  );
}
