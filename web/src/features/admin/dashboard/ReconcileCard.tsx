import { useState } from 'react';
import useSWR from 'swr';
import type { ReconcileStatusBody } from '@smm/contracts/http';
import { messageOf, post } from '../../../lib/api.ts';
import { dateTime } from '../../../lib/format.ts';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import * as r from './reconcile.css.ts';
import { adminText as t } from '../messages.ts';

/**
 * Issue 39: the read-only reconciliation (infra/reconcile, run by the wallet) — the latest run's
 * count of discrepancies and when it ran, "run it now" for admin and staff, and the discrepancies
 * when there are any. While a run is underway the card asks again every 2 s.
 */
export function ReconcileCard() {
  const { data, error, mutate } = useSWR<ReconcileStatusBody>('/admin/reconcile', { refreshInterval: (latest) => (latest?.running ? 2000 : 0) });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const running = busy || Boolean(data?.running);
  const run = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await mutate(await post<ReconcileStatusBody>('/admin/reconcile'), { revalidate: false });
    } catch (e) {
      setFailure(messageOf(e, t.reconcileFailed));
    } finally {
      setBusy(false);
    }
  };
  const latest = data?.latest ?? null;
  return (
    <section className={ui.card} aria-labelledby="reconcile-title" data-testid="reconcile">
      <div className={r.head}>
        <h2 id="reconcile-title" className={ui.cardTitle}>
          {t.reconcile}
        </h2>
        <button type="button" className={ui.button.secondary} onClick={() => void run()} disabled={running || !data}>
          {running ? t.reconcileRunning : t.reconcileRun}
        </button>
      </div>
      <p className={ui.muted}>{t.reconcileLead}</p>
      {error && !data && <p role="alert">{messageOf(error, t.reconcileFailed)}</p>}
      {failure && <p role="alert">{failure}</p>}
      {data && (
        <p className={r.summary} data-testid="reconcile-summary" aria-live="polite">
          {latest === null ? (
            <span className={ui.muted}>{t.reconcileNever}</span>
          ) : (
            <>
              <span className={latest.total > 0 ? ui.badge.danger : ui.badge.success}>{t.reconcileCount(latest.total)}</span>
              <span>{t.reconcileSummary(latest.total, dateTime(latest.finishedAt))}</span>
            </>
          )}
        </p>
      )}
      {latest !== null && latest.total > 0 && (
        <ul className={r.findings} data-testid="reconcile-discrepancies">
          {latest.discrepancies.map((d, i) => (
            <li key={`${d.rule}-${d.reference ?? ''}-${i}`} className={r.finding}>
              <span className={s.twoLines}>
                <strong>{t.reconcileRules[d.rule] ?? d.rule}</strong>
                <span className={s.sub}>{d.detail}</span>
              </span>
              <span className={r.where}>
                {d.reference && <code className={s.sub}>{d.reference}</code>}
                {d.userId && <span className={s.sub}>{t.reconcileMember(d.userId)}</span>}
              </span>
            </li>
          ))}
        </ul>
      )}
      {latest !== null && latest.total > latest.discrepancies.length && <p className={ui.muted}>{t.reconcileMore(latest.total - latest.discrepancies.length)}</p>}
    </section>
  );
}
