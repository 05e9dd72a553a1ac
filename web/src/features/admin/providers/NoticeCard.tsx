import { useState } from 'react';
import useSWR from 'swr';
import { messageOf, post } from '../../../lib/api.ts';
import { dateTime } from '../../../lib/format.ts';
import { useToast } from '../../../ui/toast.tsx';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { adminText as t } from '../messages.ts';
import type { NoticeList } from './types.ts';

/** The list's SWR key: the providers screen revalidates it after a check or an import. */
export const noticesKey = '/admin/fulfillment/notices?limit=50';

/**
 * Issue 11 "tells operators": what the price sync and the balance check did (repriced, made
 * read-only, resumed, balance low), newest first; new ones marked until an operator confirms them.
 */
export function NoticeCard() {
  const toast = useToast();
  const list = useSWR<NoticeList>(noticesKey, { refreshInterval: 30_000 });
  const [busy, setBusy] = useState(false);
  const unread = list.data?.unread ?? 0;

  async function markRead() {
    if (busy) return;
    setBusy(true);
    try {
      await post('/admin/fulfillment/notices/read');
      toast.success(t.noticesMarked);
      await list.mutate();
    } catch (error) {
      toast.error(messageOf(error, t.actionFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className={ui.card} aria-labelledby="notices-title" data-testid="provider-notices">
      <div className={s.cardHead}>
        <h2 id="notices-title" className={ui.cardTitle}>
          {t.notices} {unread > 0 && <span className={ui.badge.danger}>{t.noticesUnread(unread)}</span>}
        </h2>
        <button type="button" className={`${ui.button.secondary} ${ui.small}`} disabled={busy || unread === 0} onClick={() => void markRead()}>
          {t.noticesMarkRead}
        </button>
      </div>
      <p className={ui.muted}>{t.noticesLead}</p>
      {list.error && !list.data ? (
        <p className={ui.muted} role="alert">
          {messageOf(list.error, t.loadFailed)}
        </p>
      ) : list.data && list.data.items.length === 0 ? (
        <p className={ui.muted}>{t.noticesEmpty}</p>
      ) : (
        <ul className={s.list} aria-label={t.notices}>
          {(list.data?.items ?? []).map((n) => (
            <li key={n.id} className={s.listRow}>
              <span className={s.twoLines}>
                <span>{n.text}</span>
                <span className={s.sub}>
                  {t.noticeKinds[n.kind] ?? n.kind} · {dateTime(n.createdAt)}
                </span>
              </span>
              {!n.read && <span className={ui.badge.danger}>{t.noticeNew}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
