import type { FulfillmentRequest } from '@smm/contracts/http';
import { useId, useState } from 'react';
import useSWR from 'swr';
import { messageOf, post } from '../../../lib/api.ts';
import { count, dateTime } from '../../../lib/format.ts';
import type { Service } from '../../../lib/types.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { useToast } from '../../../ui/toast.tsx';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { adminText as t } from '../messages.ts';
import type { ProviderName } from '../orders/types.ts';
import type { Forward } from '../providers/types.ts';
import { ConsoleTable } from '../ConsoleTable.tsx';
import { providerErrorText, requestText as r } from '../requests/messages.ts';

type Action = FulfillmentRequest<'reviewAction'>['action'];
const done: Record<Action, string> = { resend: t.resent, link: t.linked, cancel: t.canceled, resume: r.resumed };
const reasons: Record<string, string> = { ...t.reviewReasons, ...r.reviewReasons };

/**
 * Fulfillment's review queue (issue 12, admin and staff): orders whose forwarding outcome is unknown.
 * The operator looks at the provider's panel, then resends, links the provider's order id, or
 * cancels with a full refund — fulfillment applies each as a guarded transition.
 */
export default function ReviewPage() {
  const toast = useToast();
  const linkField = useId();
  const queue = useSWR<Forward[]>('/admin/fulfillment/forwards?state=review&limit=200', { refreshInterval: 15_000 });
  // Names only: staff settle the queue but may not open the providers screen (its list is the admin's).
  const providers = useSWR<ProviderName[]>('/admin/orders/providers');
  const products = useSWR<Service[]>('/service/services');
  const [open, setOpen] = useState<{ forward: Forward; action: Action } | null>(null);
  const [providerOrderId, setProviderOrderId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const rows = queue.data ?? [];
  const productName = (id: number | null) => id === null ? '—' : products.data?.find((p) => Number(p.id) === id)?.text ?? t.unknownProduct(id);
  const providerName = (id: number | null) => providers.data?.find((p) => p.id === id)?.name ?? '—';

  function start(forward: Forward, action: Action) {
    setError(null);
    setProviderOrderId('');
    setOpen({ forward, action });
  }

  async function confirm() {
    if (!open || busy) return;
    let body: FulfillmentRequest<'reviewAction'>;
    if (open.action === 'link') {
      if (!/^[\w-]{1,64}$/.test(providerOrderId.trim())) return setError(t.providerOrderIdInvalid);
      body = { action: 'link', providerOrderId: providerOrderId.trim() };
    } else body = { action: open.action };
    setBusy(true);
    try {
      await post(`/admin/fulfillment/forwards/${open.forward.orderId}/review`, body);
      toast.success(done[open.action]);
      setOpen(null);
      await queue.mutate();
    } catch (caught) {
      setError(messageOf(caught, t.actionFailed));
    } finally {
      setBusy(false);
    }
  }

  const dialog = open && {
    resend: { title: t.resendTitle(open.forward.orderId), body: t.resendBody, label: t.resend, tone: 'primary' as const },
    link: { title: t.linkTitle(open.forward.orderId), body: t.linkBody, label: t.linkOrder, tone: 'primary' as const },
    cancel: { title: t.cancelTitle(open.forward.orderId), body: t.cancelBody, label: t.cancelRefund, tone: 'danger' as const },
    resume: { title: r.resumeTitle(open.forward.orderId), body: r.resumeBody, label: r.resume, tone: 'primary' as const },
  }[open.action];

  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.review}</h1>
        <p className={ui.pageLead}>{t.reviewLead}</p>
      </header>
      <ConsoleTable
        label={t.review}
        list={queue}
        rows={rows.length}
        emptyText={t.reviewEmpty}
        failedText={t.loadFailed}
        columns={[t.reviewColumns.order, t.reviewColumns.product, t.reviewColumns.link, { label: t.reviewColumns.amount, num: true }, t.reviewColumns.provider, t.reviewColumns.note, t.reviewColumns.actions]}
      >
        {rows.map((f) => (
          <tr key={f.orderId} data-testid={`review-${f.orderId}`}>
            <td className={ui.td}>
              <span className={s.twoLines}>
                <strong>#{f.orderId}</strong>
                <span className={s.sub}>{dateTime(f.updatedAt)}</span>
              </span>
            </td>
            <td className={ui.td}>{productName(f.productId)}</td>
            <td className={ui.td}>
              <span className={s.clip} title={f.link ?? undefined}>
                {f.link ?? '—'}
              </span>
            </td>
            <td className={`${ui.td} ${ui.num}`}>{f.amount === null ? '—' : count(f.amount)}</td>
            <td className={ui.td}>
              <span className={s.twoLines}>
                <span>{providerName(f.providerId)}</span>
                {f.providerOrderId && <span className={s.sub}>#{f.providerOrderId}</span>}
                {f.reviewFrom === 'accepted' && <span className={ui.badge.primary} style={{ alignSelf: 'flex-start' }}>{r.heldByProvider}</span>}
              </span>
            </td>
            <td className={ui.tdWrap}>
              <Reason note={f.note} />
              {f.providerAnswer && (
                <code className={s.sub} style={{ display: 'block', wordBreak: 'break-all' }}>
                  {r.providerAnswer(f.providerAnswer)}
                </code>
              )}
            </td>
            <td className={ui.td}>
              <span className={s.actions}>
                {/* An order the provider holds (a status answer was not understood) is followed again, never sent twice. */}
                {f.reviewFrom === 'accepted' ? (
                  <button type="button" className={`${ui.button.secondary} ${ui.small}`} onClick={() => start(f, 'resume')}>
                    {r.resume}
                  </button>
                ) : (
                  <button type="button" className={`${ui.button.secondary} ${ui.small}`} onClick={() => start(f, 'resend')}>
                    {t.resend}
                  </button>
                )}
                <button type="button" className={`${ui.button.secondary} ${ui.small}`} onClick={() => start(f, 'link')}>
                  {t.linkOrder}
                </button>
                <button type="button" className={`${ui.button.danger} ${ui.small}`} onClick={() => start(f, 'cancel')}>
                  {t.cancelRefund}
                </button>
              </span>
            </td>
          </tr>
        ))}
      </ConsoleTable>
      {open && dialog && (
        <ConfirmDialog open onOpenChange={(o) => !o && setOpen(null)} title={dialog.title} description={dialog.body} confirmLabel={dialog.label} tone={dialog.tone} busy={busy} onConfirm={() => void confirm()}>
          {open.action === 'link' && (
            <div className={ui.field}>
              <label htmlFor={linkField} className={ui.label}>
                {t.providerOrderId}
              </label>
              <input id={linkField} className={ui.input} value={providerOrderId} maxLength={64} onChange={(e) => setProviderOrderId(e.target.value)} />
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

/** Fulfillment's note is "<kind>: <provider's answer>": the kind in Korean, the answer as it came. */
function Reason({ note }: { note: string | null }) {
  if (note === null) return <span className={ui.muted}>—</span>;
  const at = note.indexOf(': ');
  const kind = at === -1 ? note : note.slice(0, at);
  const label = reasons[kind];
  if (label === undefined) return <span className={s.sub}>{note}</span>;
  return (
    <span className={s.twoLines}>
      <span>{label}</span>
      {at !== -1 && <span className={s.sub}>{providerErrorText(note.slice(at + 2))}</span>}
    </span>
  );
}
