import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { useAuth } from '../../auth/auth.tsx';
import { messageOf, post } from '../../lib/api.ts';
import { count, dateTime } from '../../lib/format.ts';
import { AutoOrderStatus } from '../../lib/statuses.ts';
import type { AutoOrderItem } from '../../lib/types.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { useToast } from '../../ui/toast.tsx';
import * as ui from '../../ui/ui.css.ts';
import { HistoryTable, useHistory } from './HistoryTable.tsx';
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
  const history = useHistory<AutoOrderItem>('/service/auto-order-history');
  const [target, setTarget] = useState<AutoOrderItem | null>(null);
  const [busy, setBusy] = useState(false);

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
    <>
      <HistoryTable title={t.autoTitle} lead={t.autoLead} filters={filters} history={history} heads={heads} numeric={[3, 4, 8]}>
        {(history.data?.items ?? []).map((o) => (
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
      </HistoryTable>
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
    </>
  );
}
