import type { FulfillmentRequest, ProviderRequestBody, ProviderRequestListBody } from '@smm/contracts/http';
import { useId, useState } from 'react';
import useSWR from 'swr';
import { useAuth } from '../../../auth/auth.tsx';
import { messageOf, post } from '../../../lib/api.ts';
import { dateTime } from '../../../lib/format.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { FilterChips } from '../../../ui/paging.tsx';
import { useToast } from '../../../ui/toast.tsx';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { ConsoleTable } from '../ConsoleTable.tsx';
import { adminText as t } from '../messages.ts';
import { providerErrorText, requestText as r } from './messages.ts';

type Filter = 'failed' | 'open' | 'all';
type Kind = 'refill' | 'cancel' | null;
type Action = FulfillmentRequest<'requestAction'>['action'];

const stateTone: Record<string, keyof typeof ui.badge> = { sending: 'neutral', waiting: 'neutral', forwarded: 'primary', failed: 'danger', done: 'success', closed: 'neutral' };

/**
 * Fulfillment's refill and cancel request queue (issue 41, admin and staff): requests the provider
 * refused or answered unclearly, with its answer as sent; the operator sends one again or closes
 * it with a note. An operator's own order is not theirs to settle (SELF_ACTION), so its buttons
 * are not offered.
 */
export default function RequestsPage() {
  const toast = useToast();
  const auth = useAuth();
  const noteField = useId();
  const [filter, setFilter] = useState<Filter>('failed');
  const [kind, setKind] = useState<Kind>(null);
  const query = new URLSearchParams({ state: filter, limit: '200' });
  if (kind) query.set('kind', kind);
  const list = useSWR<ProviderRequestListBody>(`/admin/fulfillment/requests?${query.toString()}`, { refreshInterval: 15_000, keepPreviousData: true });
  const [open, setOpen] = useState<{ request: ProviderRequestBody; action: Action } | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const rows = list.data?.items ?? [];

  function start(request: ProviderRequestBody, action: Action) {
    setError(null);
    setNote('');
    setOpen({ request, action });
  }

  async function confirm() {
    if (!open || busy) return;
    if (note.trim().length > 200) return setError(r.noteTooLong);
    const body: FulfillmentRequest<'requestAction'> = open.action === 'retry' ? { action: 'retry' } : { action: 'close', ...(note.trim() ? { note: note.trim() } : {}) };
    setBusy(true);
    try {
      const after = await post<ProviderRequestBody>(`/admin/fulfillment/requests/${open.request.id}/resolve`, body);
      toast.success(open.action === 'retry' ? r.retried(r.states[after.state] ?? after.state) : r.closed);
      setOpen(null);
      await list.mutate();
    } catch (caught) {
      setError(messageOf(caught, t.actionFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{r.requests}</h1>
        <p className={ui.pageLead}>{r.requestsLead}</p>
      </header>
      <section className={ui.card}>
        <div className={s.filters}>
          <div className={s.filterRow}>
            <span className={s.filterLabel}>{r.stateFilter}</span>
            <FilterChips<Filter> label={r.stateFilter} options={(['failed', 'open', 'all'] as const).map((v) => ({ value: v, label: r.filters[v] }))} value={filter} onChange={setFilter} />
          </div>
          <div className={s.filterRow}>
            <span className={s.filterLabel}>{r.kindFilter}</span>
            <FilterChips<Kind> label={r.kindFilter} options={[{ value: null, label: r.allKinds }, { value: 'refill', label: r.kinds.refill! }, { value: 'cancel', label: r.kinds.cancel! }]} value={kind} onChange={setKind} />
          </div>
          {list.data && (
            <p className={ui.muted} data-testid="request-counts">
              {r.counts(list.data.counts.failed, list.data.counts.open)}
            </p>
          )}
        </div>
      </section>
      <ConsoleTable label={r.requests} list={list} rows={rows.length} emptyText={r.empty[filter]} failedText={t.loadFailed} columns={[r.columns.request, r.columns.order, r.columns.provider, r.columns.state, r.columns.answer, r.columns.actions]}>
        {rows.map((q) => (
          <tr key={q.id} data-testid={`request-${q.id}`}>
            <td className={ui.td}>
              <span className={s.twoLines}>
                <strong>
                  {r.kinds[q.kind]} #{q.number}
                </strong>
                <span className={s.sub}>{dateTime(q.updatedAt)}</span>
              </span>
            </td>
            <td className={ui.td}>
              <span className={s.twoLines}>
                <span>#{q.orderId}</span>
                <span className={s.sub}>{r.attempts(q.attempts)}</span>
              </span>
            </td>
            <td className={ui.td}>
              <span className={s.twoLines}>
                <span>{q.providerName ?? `#${q.providerId}`}</span>
                <span className={s.sub}>#{q.providerOrderId}</span>
              </span>
            </td>
            <td className={ui.td}>
              <span className={s.twoLines}>
                <span className={ui.badge[stateTone[q.state] ?? 'neutral']} style={{ whiteSpace: 'nowrap', alignSelf: 'flex-start' }}>
                  {r.states[q.state] ?? q.state}
                </span>
                {q.unclear && q.state === 'failed' && (
                  <span className={ui.badge.warning} title={r.unclearHint} style={{ whiteSpace: 'nowrap', alignSelf: 'flex-start' }}>
                    {r.unclear}
                  </span>
                )}
                {q.status && <span className={s.sub}>{r.providerStatus(q.status)}</span>}
              </span>
            </td>
            <td className={ui.tdWrap}>
              <span className={`${s.twoLines} ${s.answerCell}`}>
                {q.error && <span>{providerErrorText(q.error)}</span>}
                <ProviderAnswer answer={q.answer} />
                {q.note && <span className={s.sub}>{q.note}</span>}
              </span>
            </td>
            <td className={ui.td}>
              {q.state === 'failed' &&
                (q.userId === auth.profile?.userId ? (
                  <span className={s.sub}>{r.selfOrder}</span>
                ) : (
                  <span className={s.actions}>
                    <button type="button" className={`${ui.button.secondary} ${ui.small}`} onClick={() => start(q, 'retry')}>
                      {r.retry}
                    </button>
                    <button type="button" className={`${ui.button.ghost} ${ui.small}`} onClick={() => start(q, 'close')}>
                      {r.close}
                    </button>
                  </span>
                ))}
            </td>
          </tr>
        ))}
      </ConsoleTable>
      {open && (
        <ConfirmDialog
          open
          onOpenChange={(o) => !o && setOpen(null)}
          title={open.action === 'retry' ? r.retryTitle(`${r.kinds[open.request.kind]} #${open.request.number}`) : r.closeTitle(`${r.kinds[open.request.kind]} #${open.request.number}`)}
          description={open.action === 'retry' ? r.retryBody : r.closeBody}
          confirmLabel={open.action === 'retry' ? r.retry : r.close}
          tone="primary"
          busy={busy}
          onConfirm={() => void confirm()}
        >
          {open.action === 'close' && (
            <div className={ui.field}>
              <label htmlFor={noteField} className={ui.label}>
                {r.note}
              </label>
              <input id={noteField} className={ui.input} value={note} maxLength={200} onChange={(e) => setNote(e.target.value)} />
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

/** Past this many characters a provider's answer (often a whole HTML page) shows its start and opens on demand. */
const ANSWER_PREVIEW = 80;

/**
 * The provider's answer as sent. A long one shows its first line's start and opens in place
 * (a native disclosure: keyboard and touch alike), so one HTML error page does not make its row a
 * screen tall on a phone.
 */
function ProviderAnswer({ answer }: { answer: string | null | undefined }) {
  if (answer == null) return <code className={s.sub}>{r.noAnswer}</code>;
  if (answer.length <= ANSWER_PREVIEW) return <code className={`${s.sub} ${s.answerText}`}>{answer}</code>;
  return (
    <details className={s.answer}>
      <summary className={s.sub}>
        <code className={s.answerText}>{`${answer.replace(/\s+/g, " ").slice(0, ANSWER_PREVIEW)}…`}</code> {r.showAnswer(answer.length)}
      </summary>
      <code className={`${s.sub} ${s.answerText}`}>{answer}</code>
    </details>
  );
}
