import type { AutoOrderViewBody } from '@smm/contracts/http';
import { useId, useState } from 'react';
import useSWR from 'swr';
import { useAuth } from '../../../auth/auth.tsx';
import { messageOf, post } from '../../../lib/api.ts';
import { subscriptionStateLabels } from '../../../lib/contracts.ts';
import { count, dateTime, won } from '../../../lib/format.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { FilterChips } from '../../../ui/paging.tsx';
import { useToast } from '../../../ui/toast.tsx';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { ConsoleTable } from '../ConsoleTable.tsx';
import { adminText as t } from '../messages.ts';
import { subscriptionAdminText as x } from './messages.ts';

type Filter = 'active' | 'paused' | 'all';
type Page = { items: Array<AutoOrderViewBody & { loginId?: string | null }> };
type Open = { sub: AutoOrderViewBody; action: 'post' | 'expired' | 'canceled' };
const tones = { active: 'primary', paused: 'warning', completed: 'success', expired: 'neutral', canceled: 'danger' } as const;

/**
 * Subscriptions our operators run (issue 40; admin and staff, area orders): a new post of the
 * profile becomes the subscription's next order, pause and resume; expiry and cancel refund the
 * posts not done, an admin's decision (the order service refuses staff and one's own).
 */
export default function SubscriptionsPage() {
  const toast = useToast();
  const auth = useAuth();
  const linkField = useId();
  const [filter, setFilter] = useState<Filter>('active');
  const list = useSWR<Page>(`/admin/orders/subscriptions?pageSize=100${filter === 'all' ? '' : `&state=${filter}`}`, { refreshInterval: 15_000, keepPreviousData: true });
  const [open, setOpen] = useState<Open | null>(null);
  const [link, setLink] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const rows = (list.data?.items ?? []).filter((r) => r.subscription);
  const admin = auth.profile?.role === 'admin';

  async function act(sub: AutoOrderViewBody, action: 'pause' | 'resume') {
    try {
      await post(`/admin/orders/subscriptions/${sub.id}/${action}`);
      toast.success(action === 'pause' ? x.paused : x.resumed);
      await list.mutate();
    } catch (caught) {
      toast.error(messageOf(caught, t.actionFailed));
    }
  }

  async function confirm() {
    if (!open || busy) return;
    setBusy(true);
    setError(null);
    try {
      if (open.action === 'post') {
        const answer = await post<{ order: { run: number } }>(`/admin/orders/subscriptions/${open.sub.id}/posts`, link.trim() ? { link: link.trim() } : {});
        toast.success(x.recorded(answer?.order.run ?? open.sub.completed + 1));
      } else {
        const answer = await post<{ refundDeci: number }>(`/admin/orders/subscriptions/${open.sub.id}/end`, { state: open.action });
        toast.success(x.ended(won(answer?.refundDeci ?? 0)));
      }
      setOpen(null);
      setLink('');
      await list.mutate();
    } catch (caught) {
      setError(messageOf(caught, t.actionFailed));
    } finally {
      setBusy(false);
    }
  }

  const left = (sub: AutoOrderViewBody) => sub.runs - sub.completed;
  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{x.title}</h1>
        <p className={ui.pageLead}>{x.lead}</p>
      </header>
      <section className={ui.card}>
        <div className={s.filters}>
          <div className={s.filterRow}>
            <span className={s.filterLabel}>{x.stateFilter}</span>
            <FilterChips<Filter> label={x.stateFilter} options={(['active', 'paused', 'all'] as const).map((v) => ({ value: v, label: x.filters[v]! }))} value={filter} onChange={setFilter} />
          </div>
        </div>
      </section>
      <ConsoleTable label={x.title} list={list} rows={rows.length} emptyText={x.empty} failedText={t.loadFailed} columns={[x.columns.id, x.columns.member, x.columns.terms, x.columns.posts, x.columns.money, x.columns.state, x.columns.actions]}>
        {rows.map((sub) => {
          const terms = sub.subscription!;
          const live = terms.state === 'active' || terms.state === 'paused';
          const own = sub.userId === auth.profile?.userId;
          return (
            <tr key={sub.id} data-testid={`subscription-${sub.id}`}>
              <td className={ui.td}>
                <span className={s.twoLines}>
                  <strong>#{sub.id}</strong>
                  <span className={s.sub}>{dateTime(sub.createdAt)}</span>
                </span>
              </td>
              <td className={ui.td}>{sub.loginId ?? sub.userId}</td>
              <td className={ui.tdWrap}>
                <span className={s.twoLines}>
                  <span>@{terms.username} · {sub.serviceText}</span>
                  <span className={s.sub}>
                    {x.terms(count(terms.min), count(terms.max), terms.delay)} · {x.expiry(terms.expiry)}
                  </span>
                </span>
              </td>
              <td className={ui.td} data-testid="posts-done">{x.posts(sub.completed, sub.runs)}</td>
              <td className={ui.td}>
                <span className={s.twoLines}>
                  <span>{x.charged(won(sub.chargeDeci))}</span>
                  {sub.refundedDeci > 0 && <span className={s.sub}>{x.refunded(won(sub.refundedDeci))}</span>}
                </span>
              </td>
              <td className={ui.td}>
                <span className={ui.badge[tones[terms.state]]} style={{ whiteSpace: 'nowrap' }}>{subscriptionStateLabels[terms.state]}</span>
              </td>
              <td className={ui.td}>
                {live && own && <span className={s.sub}>{x.selfOrder}</span>}
                {live && !own && (
                  <span className={s.actions}>
                    {terms.state === 'active' && (
                      <button type="button" className={`${ui.button.primary} ${ui.small}`} onClick={() => setOpen({ sub, action: 'post' })}>
                        {x.recordPost}
                      </button>
                    )}
                    <button type="button" className={`${ui.button.secondary} ${ui.small}`} onClick={() => void act(sub, terms.state === 'active' ? 'pause' : 'resume')}>
                      {terms.state === 'active' ? x.pause : x.resume}
                    </button>
                    {admin && (
                      <>
                        <button type="button" className={`${ui.button.ghost} ${ui.small}`} onClick={() => setOpen({ sub, action: 'expired' })}>
                          {x.expire}
                        </button>
                        <button type="button" className={`${ui.button.danger} ${ui.small}`} onClick={() => setOpen({ sub, action: 'canceled' })}>
                          {x.cancel}
                        </button>
                      </>
                    )}
                  </span>
                )}
              </td>
            </tr>
          );
        })}
      </ConsoleTable>
      {open && (
        <ConfirmDialog
          open
          onOpenChange={(o) => !o && setOpen(null)}
          title={open.action === 'post' ? x.postTitle(open.sub.id) : x.endTitle(open.sub.id, open.action)}
          description={open.action === 'post' ? x.postBody(open.sub.completed + 1, count(open.sub.amount)) : x.endBody(left(open.sub), won(open.sub.chargeDeci - (open.sub.subscription?.perPostDeci ?? 0) * open.sub.completed))}
          confirmLabel={open.action === 'post' ? x.recordPost : open.action === 'expired' ? x.expire : x.cancel}
          tone={open.action === 'post' ? 'primary' : 'danger'}
          busy={busy}
          onConfirm={() => void confirm()}
        >
          {open.action === 'post' && (
            <div className={ui.field}>
              <label htmlFor={linkField} className={ui.label}>{x.postLink}</label>
              <input id={linkField} className={ui.input} value={link} maxLength={2048} inputMode="url" placeholder="https://" onChange={(e) => setLink(e.target.value)} />
              <p className={ui.hint}>{x.postLinkHint}</p>
            </div>
          )}
          {error && (
            <p className={ui.errorText} role="alert">
              {error}
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
