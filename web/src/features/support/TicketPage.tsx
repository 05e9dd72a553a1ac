import { useEffect, useId, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import useSWR, { useSWRConfig } from 'swr';
import type { TicketDetailBody } from '@smm/contracts/http';
import { messageOf, post } from '../../lib/api.ts';
import { ticketLimits } from '../../lib/contracts.ts';
import { dateTime } from '../../lib/format.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { useToast } from '../../ui/toast.tsx';
import { useSubmitOnce } from '../../ui/use-submit-once.ts';
import * as ui from '../../ui/ui.css.ts';
import { supportText as t } from './messages.ts';
import * as s from './support.css.ts';
import { TicketStatusBadge, TicketThread, categoryLabel } from '../../ui/ticket-status.tsx';

const stale = (key: unknown) => typeof key === 'string' && key.startsWith('/support/');

/**
 * One ticket's thread. The live channel re-reads it when an operator answers (the `/support/`
 * keys); an answer that arrives while it is open is read at once, so the menu's mark goes out.
 */
export default function TicketPage() {
  const { id } = useParams();
  const key = id && /^\d{1,10}$/.test(id) ? `/support/tickets/${id}` : null;
  const ticket = useSWR<TicketDetailBody>(key);
  const { mutate } = useSWRConfig();
  const toast = useToast();
  const replyId = useId();
  const [reply, setReply] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [closing, setClosing] = useState(false);
  const send = useSubmitOnce();
  const close = useSubmitOnce();
  const data = ticket.data;

  useEffect(() => {
    if (!data?.unread) return;
    void post(`/support/tickets/${data.id}/read`)
      .then(() => mutate(stale))
      .catch(() => undefined);
  }, [data?.id, data?.unread, data?.messageCount, mutate]);

  const sendReply = () =>
    send.run(async () => {
      setError(null);
      try {
        await post(`/support/tickets/${id}/messages`, { body: reply });
        setReply('');
        toast.success(t.sent);
        await mutate(stale);
      } catch (caught) {
        setError(messageOf(caught, t.sendFailed));
      }
    });

  const closeTicket = () =>
    close.run(async () => {
      try {
        await post(`/support/tickets/${id}/close`);
        toast.success(t.closed);
        setClosing(false);
        await mutate(stale);
      } catch (caught) {
        toast.error(messageOf(caught, t.closeFailed));
      }
    });

  if (key === null || (ticket.error && !data)) {
    return (
      <div className={ui.page} style={{ maxWidth: 860 }}>
        <Link to="/support" className={ui.link}>
          {t.back}
        </Link>
        <p className={ui.callout} role="alert">
          {messageOf(ticket.error, t.notFound)}
        </p>
      </div>
    );
  }
  if (!data) return <div className={ui.page} style={{ maxWidth: 860 }} aria-busy="true" />;

  return (
    <div className={ui.page} style={{ maxWidth: 860 }}>
      <Link to="/support" className={ui.link}>
        {t.back}
      </Link>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle} style={{ overflowWrap: 'anywhere' }}>
          {data.title}
        </h1>
        <p className={s.meta}>
          <span>{t.ticketNo(data.id)}</span>
          <span>{categoryLabel(data.category)}</span>
          <span>{dateTime(data.createdAt)}</span>
          <TicketStatusBadge status={data.status} />
        </p>
        {data.orderIds.length > 0 && (
          <p className={s.meta}>
            {t.linkedOrders}: {data.orderIds.map((o) => `#${o}`).join(', ')}
          </p>
        )}
      </header>
      <TicketThread messages={data.messages} mine="member" who={(m) => (m.author === 'member' ? t.me : t.operator)} label={t.thread} testId="thread" />
      {data.status === 'closed' ? (
        <p className={ui.callout}>{t.closedNote}</p>
      ) : (
        <form
          className={`${ui.card} ${ui.stack}`}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void sendReply();
          }}
        >
          <div className={ui.field}>
            <label htmlFor={replyId} className={ui.label}>
              {t.reply}
            </label>
            <textarea id={replyId} className={ui.textarea} rows={4} value={reply} maxLength={ticketLimits.bodyMax} placeholder={t.replyPlaceholder} onChange={(e) => setReply(e.target.value)} />
            <span className={s.counter}>{t.count([...reply].length, ticketLimits.bodyMax)}</span>
          </div>
          {error && (
            <p className={ui.errorText} role="alert">
              {error}
            </p>
          )}
          <div className={s.actions}>
            <button type="button" className={ui.button.danger} onClick={() => setClosing(true)}>
              {t.close}
            </button>
            <button type="submit" className={ui.button.primary} disabled={send.busy}>
              {t.send}
            </button>
          </div>
        </form>
      )}
      <ConfirmDialog open={closing} onOpenChange={setClosing} title={t.closeTitle} description={t.closeBody} confirmLabel={t.close} tone="danger" busy={close.busy} onConfirm={() => void closeTicket()} />
    </div>
  );
}
