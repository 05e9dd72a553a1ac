import { useState } from 'react';
import useSWR from 'swr';
import { messageOf, post } from '../../../lib/api.ts';
import { dateTime, won } from '../../../lib/format.ts';
import type { Page } from '../../../lib/types.ts';
import { FilterChips, Pager } from '../../../ui/paging.tsx';
import { useToast } from '../../../ui/toast.tsx';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { adminText as t } from '../messages.ts';
import { type AttachTarget, AttachDialog } from './AttachDialog.tsx';
import { ManualDeposit } from './ManualDeposit.tsx';
import type { AdminDeposit } from './types.ts';
import { ConsoleTable } from '../ConsoleTable.tsx';

type Filter = 'open' | 'matched' | 'attached' | null;
const filters: ReadonlyArray<{ value: Filter; label: string }> = [
  { value: 'open', label: t.depositOpen },
  { value: 'matched', label: t.depositMatched },
  { value: 'attached', label: t.depositAttached },
  { value: null, label: t.all },
];
const statusView: Record<AdminDeposit['status'], { label: string; badge: string }> = {
  matched: { label: t.depositMatched, badge: ui.badge.success },
  attached: { label: t.depositAttached, badge: ui.badge.primary },
  unmatched: { label: t.depositUnmatched, badge: ui.badge.warning },
  ambiguous: { label: t.depositAmbiguous, badge: ui.badge.danger },
};
const pageSize = 20;

/** Issue 12: deposits matched automatically, and the queue of the ones an operator attaches. */
export default function DepositsPage() {
  const toast = useToast();
  const [filter, setFilter] = useState<Filter>('open');
  const [page, setPage] = useState(1);
  const [attaching, setAttaching] = useState<AdminDeposit | null>(null);
  const [busy, setBusy] = useState(false);
  const [attachError, setAttachError] = useState<string | null>(null);
  const query = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (filter !== null) query.set('status', filter);
  // Notifications arrive on their own: the list follows without a reload.
  const list = useSWR<Page<AdminDeposit>>(`/admin/deposits?${query.toString()}`, { keepPreviousData: true, refreshInterval: 10_000 });
  const rows = list.data?.items ?? [];

  async function attach(deposit: AdminDeposit, target: AttachTarget) {
    if (busy) return;
    setBusy(true);
    try {
      await post(`/admin/deposits/${encodeURIComponent(deposit.id)}/attach`, target);
      toast.success(t.attached);
      setAttaching(null);
      await list.mutate();
    } catch (error) {
      setAttachError(messageOf(error, t.actionFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.deposits}</h1>
        <p className={ui.pageLead}>{t.depositsLead}</p>
      </header>
      <ManualDeposit onDone={() => void list.mutate()} />
      <div className={s.filterRow}>
        <span className={s.filterLabel}>{t.depositStatus}</span>
        <FilterChips
          label={t.depositStatus}
          options={filters}
          value={filter}
          onChange={(v) => {
            setFilter(v);
            setPage(1);
          }}
        />
      </div>
      <ConsoleTable
        label={t.deposits}
        list={list}
        rows={rows.length}
        emptyText={t.depositsEmpty}
        failedText={t.loadFailed}
        columns={[t.depositColumns.depositedAt, t.depositColumns.depositor, { label: t.depositColumns.amount, num: true }, t.depositColumns.source, t.depositColumns.status, t.depositColumns.target, t.depositColumns.actions]}
      >
        {rows.map((d) => {
          const open = d.status === 'unmatched' || d.status === 'ambiguous';
          return (
            <tr key={d.id} data-testid={`deposit-${d.transactionId}`}>
              <td className={ui.td}>
                <span className={s.twoLines}>
                  <span>{dateTime(d.depositedAt).slice(0, 10)}</span>
                  <span className={s.sub}>{dateTime(d.depositedAt).slice(11)}</span>
                </span>
              </td>
              <td className={ui.td}>{d.depositorName}</td>
              <td className={`${ui.td} ${ui.num}`}>
                <strong>{won(d.amountDeci)}</strong>
              </td>
              <td className={ui.td}>
                <span className={s.twoLines}>
                  <span>{d.source === 'bank' ? t.sourceBank : t.sourceManual}</span>
                  {d.source === 'bank' && <span className={s.sub}>{d.transactionId}</span>}
                </span>
              </td>
              <td className={ui.td}>
                <span className={statusView[d.status].badge}>{statusView[d.status].label}</span>
              </td>
              <td className={ui.td}>
                {d.topUpId !== null ? (
                  t.attachedTo(d.topUpId, d.loginId ?? t.unknownMember)
                ) : d.candidates.length > 0 ? (
                  <span className={ui.muted}>{t.candidates(d.candidates.map((c) => `#${c}`).join(', '))}</span>
                ) : (
                  <span className={ui.muted}>—</span>
                )}
              </td>
              <td className={ui.td}>
                {open && (
                  <button
                    type="button"
                    className={`${ui.button.primary} ${ui.small}`}
                    onClick={() => {
                      setAttachError(null);
                      setAttaching(d);
                    }}
                  >
                    {t.attach}
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </ConsoleTable>
      <Pager page={page} hasNext={list.data?.hasNext ?? false} onPage={setPage} label={t.deposits} />
      {attaching && <AttachDialog deposit={attaching} busy={busy} error={attachError} onClose={() => setAttaching(null)} onConfirm={(target) => void attach(attaching, target)} />}
    </>
  );
}
