import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { useAuth } from '../../auth/auth.tsx';
import { messageOf, post } from '../../lib/api.ts';
import { count, dateTime } from '../../lib/format.ts';
import { AutoOrderStatus } from '../../lib/statuses.ts';
import type { AutoOrderItem } from '../../lib/types.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { FilterChips, Pager, usePaged } from '../../ui/paging.tsx';
import { useToast } from '../../ui/toast.tsx';
import * as ui from '../../ui/ui.css.ts';
import { useAwaitOrder } from './await-order.ts';
import { LinkCell, money, shortId } from './cells.tsx';
import { historyText as t } from './messages.ts';

const v = AutoOrderStatus.values;
const filters = [
  { value: null, label: t.all },
  { value: v.ACTIVE, label: '진행중' },
  { value: v.COMPLETED, label: '완료' },
  { value: v.CANCELED, label: '취소' },
];
const tones: Record<number, keyof typeof ui.badge> = { [v.ACTIVE]: 'primary', [v.COMPLETED]: 'success', [v.CANCELED]: 'danger', [v.PARTIAL]: 'success' };

/** Spec §2 auto-order history: chips all/active/completed/cancelled; cancel for active ones. */
export default function AutoOrderHistoryPage() {
  const auth = useAuth();
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const [status, setStatus] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [target, setTarget] = useState<AutoOrderItem | null>(null);
  const [busy, setBusy] = useState(false);
  const { data, error, mutate: revalidate } = usePaged<AutoOrderItem>('/service/auto-order-history', page, status);
  useAwaitOrder(data, () => revalidate(), () => void auth.refreshProfile());

  async function cancel() {
    if (!target || busy) return;
    setBusy(true);
    try {
      await post(`/service/auto-order/${encodeURIComponent(String(target.id))}/cancel`);
      toast.success(t.cancelled);
      setTarget(null);
      void mutate((key) => typeof key === 'string' && key.startsWith('/service/auto-order-history'));
      // The wallet credits the refund a moment after the cancel answer: re-read until it shows.
      auth.followBalance();
    } catch (err) {
      toast.error(messageOf(err, t.cancelFailed));
    } finally {
      setBusy(false);
    }
  }

  const heads = [t.orderNo, t.date, t.link, t.finalUsed, t.perRun, t.product, t.runs, t.interval, t.finalQuantity, t.status, t.manage];
  return (
    <div className={`${ui.page} ${ui.wide}`}>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.autoTitle}</h1>
        <p className={ui.pageLead}>{t.autoLead}</p>
      </header>
      <section className={ui.card}>
        <div className={ui.stack}>
          <FilterChips
            label={t.filter}
            options={filters}
            value={status}
            onChange={(value) => {
              setStatus(value);
              setPage(1);
            }}
          />
          <div className={ui.tableWrap}>
            <table className={ui.table}>
              <thead>
                <tr>
                  {heads.map((h, i) => (
                    <th key={h} scope="col" className={[3, 4, 8].includes(i) ? `${ui.th} ${ui.num}` : ui.th}>{h}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {(data?.items ?? []).map((o) => (
                  <tr key={o.id}>
                    <td className={ui.td} title={String(o.id)}>{shortId(o.id)}</td>
                    <td className={ui.td}>{dateTime(o.createdAt)}</td>
                    <LinkCell link={o.link} linkUrl={o.linkUrl} />
                    <td className={`${ui.td} ${ui.num}`}>{money(o)}</td>
                    <td className={`${ui.td} ${ui.num}`}>{count(o.amount)}</td>
                    <td className={ui.tdWrap}>{o.serviceText ?? o.serviceId}</td>
                    <td className={ui.td}>{`${o.completed}/${o.runs}`}</td>
                    <td className={ui.td}>{t.minutes(o.interval)}</td>
                    <td className={`${ui.td} ${ui.num}`}>{count(o.totalQuantity ?? o.amount * o.runs)}</td>
                    <td className={ui.td}><span className={ui.badge[tones[o.status] ?? 'neutral']}>{AutoOrderStatus.labels[o.status] ?? o.status}</span></td>
                    <td className={ui.td}>
                      {o.status === v.ACTIVE && (
                        <button type="button" className={`${ui.button.danger} ${ui.small}`} onClick={() => setTarget(o)} aria-label={`자동 주문 ${shortId(o.id)} ${t.cancel}`}>
                          {t.cancel}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {data && data.items.length === 0 && <p className={ui.empty}>{t.empty}</p>}
            {error && !data && <p className={ui.empty}>{t.loadFailed}</p>}
          </div>
          <Pager page={page} hasNext={data?.hasNext ?? false} onPage={setPage} label={t.autoTitle} />
        </div>
      </section>
      <ConfirmDialog
        open={target !== null}
        onOpenChange={(open) => !open && setTarget(null)}
        title={t.cancelTitle}
        description={t.cancelBody}
        confirmLabel={t.cancelConfirm}
        tone="danger"
        busy={busy}
        onConfirm={() => void cancel()}
      />
    </div>
  );
}
