import type { RestrictionRecordBody } from '@smm/contracts/http';
import { type FormEvent, useId, useState } from 'react';
import { api } from '../../../lib/api.ts';
import { type Restriction, type RestrictionLevel, restrictionLevelLabels, restrictionLevels, restrictionReasonMaxLength } from '../../../lib/contracts.ts';
import { dateTime, fromKstDateTimeInput, kstDateTimeInput } from '../../../lib/format.ts';
import { useToast } from '../../../ui/toast.tsx';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { FormOutcome, useInlineForm } from '../inline-form.tsx';
import { adminText as t } from '../messages.ts';

export type RestrictionRecord = RestrictionRecordBody;

export const restrictionBadge = (level: RestrictionLevel) => (level === 'warning' ? ui.badge.warning : ui.badge.danger);

/** A week from now, as the suspension's end the form offers. */
const aWeekAhead = () => kstDateTimeInput(new Date(Date.now() + 7 * 86_400_000));

/**
 * Operators (admin and staff) set or lift a member's restriction (issue 12) with a mandatory
 * reason; a suspension ends at a KST date and time. Shows the restriction in force and the history.
 */
export function RestrictionCard({ userId, current, history, onDone }: { userId: string; current: Restriction | null; history: RestrictionRecord[]; onDone(): void }) {
  const toast = useToast();
  const ids = { level: useId(), until: useId(), reason: useId() };
  const [level, setLevel] = useState<RestrictionLevel | 'none'>(current ? 'none' : 'warning');
  const [until, setUntil] = useState(aWeekAhead);
  const [reason, setReason] = useState('');
  const { error, setError, busy, submit: run } = useInlineForm();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (reason.trim() === '') return setError(t.restrictionReasonRequired);
    if (level === 'suspended' && until === '') return setError(t.restrictionUntilRequired);
    await run(async () => {
      await api(`/admin/members/${encodeURIComponent(userId)}/restriction`, {
        method: 'PUT',
        body: { level, reason: reason.trim(), ...(level === 'suspended' ? { until: fromKstDateTimeInput(until) } : {}) },
      });
      toast.success(t.restrictionDone);
      setReason('');
      setLevel(level === 'none' ? 'warning' : 'none');
      onDone();
    });
  }

  return (
    <section className={ui.card} aria-labelledby="restriction-title">
      <h2 id="restriction-title" className={ui.cardTitle}>
        {t.restrictionTitle}
      </h2>
      <p data-testid="restriction-current">
        <span className={ui.label}>{t.restrictionCurrent} </span>
        {current ? (
          <>
            <span className={restrictionBadge(current.level)}>{restrictionLevelLabels[current.level]}</span> {current.reason}
            {current.until && <span className={ui.muted}> · {t.restrictionUntil(dateTime(current.until))}</span>}
          </>
        ) : (
          <span className={ui.badge.neutral}>{t.restrictionNone}</span>
        )}
      </p>
      <form className={`${s.filterRow} ${s.formHint}`} aria-label={t.restrictionTitle} onSubmit={(e) => void submit(e)} noValidate>
        <label htmlFor={ids.level} className="sr-only">
          {t.restrictionLevel}
        </label>
        <select id={ids.level} className={`${ui.input} ${s.searchInput}`} style={{ width: 130 }} value={level} onChange={(e) => setLevel(e.target.value as RestrictionLevel | 'none')}>
          {restrictionLevels.map((l) => (
            <option key={l} value={l}>
              {restrictionLevelLabels[l]}
            </option>
          ))}
          {current && <option value="none">{t.restrictionLift}</option>}
        </select>
        {level === 'suspended' && (
          <>
            <label htmlFor={ids.until} className={ui.label}>
              {t.restrictionUntilLabel}
            </label>
            <input id={ids.until} type="datetime-local" className={`${ui.input} ${s.searchInput}`} style={{ width: 220 }} value={until} onChange={(e) => setUntil(e.target.value)} />
          </>
        )}
        <label htmlFor={ids.reason} className="sr-only">
          {t.restrictionReason}
        </label>
        <input id={ids.reason} className={`${ui.input} ${s.searchInput}`} style={{ width: 320 }} placeholder={t.restrictionReason} value={reason} maxLength={restrictionReasonMaxLength} onChange={(e) => setReason(e.target.value)} />
        <button type="submit" className={`${level === 'none' || level === 'warning' ? ui.button.secondary : ui.button.danger} ${ui.small}`} disabled={busy}>
          {t.restrictionSubmit}
        </button>
      </form>
      <FormOutcome error={error} hint={t.restrictionHint} />
      {history.length > 0 && (
        <div className={`${ui.tableWrap} ${s.formHint}`}>
          <table className={`${ui.table} ${s.table}`} aria-label={t.restrictionHistory}>
            <thead>
              <tr>
                <th className={ui.th}>{t.restrictionColumns.at}</th>
                <th className={ui.th}>{t.restrictionColumns.change}</th>
                <th className={ui.th}>{t.restrictionColumns.reason}</th>
                <th className={ui.th}>{t.restrictionColumns.until}</th>
                <th className={ui.th}>{t.restrictionColumns.by}</th>
              </tr>
            </thead>
            <tbody>
              {history.map((r) => (
                <tr key={r.id}>
                  <td className={ui.td}>{dateTime(r.at)}</td>
                  <td className={ui.td}>{r.level ? <span className={restrictionBadge(r.level)}>{restrictionLevelLabels[r.level]}</span> : <span className={ui.badge.neutral}>{t.restrictionLifted}</span>}</td>
                  <td className={ui.tdWrap}>{r.reason}</td>
                  <td className={ui.td}>{r.until ? dateTime(r.until) : '—'}</td>
                  <td className={ui.td}>{r.changedByLoginId}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
