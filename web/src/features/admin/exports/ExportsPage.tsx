import { type FormEvent, useId, useState } from 'react';
import { useAuth } from '../../../auth/auth.tsx';
import { ChargeStatus, OrderStatus } from '../../../lib/statuses.ts';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { download } from '../admin-api.ts';
import { profitText as t } from '../profit/messages.ts';
import * as p from '../profit/profit.css.ts';

type Kind = 'orders' | 'top-ups' | 'deposits' | 'ledger' | 'members' | 'audit';
const kinds: Array<{ kind: Kind; adminOnly: boolean; member: 'loginId' | 'actor' | null; statuses: Array<[string, string]> }> = [
  { kind: 'orders', adminOnly: false, member: 'loginId', statuses: Object.values(OrderStatus.values).map((v) => [String(v), OrderStatus.label(v)]) },
  { kind: 'top-ups', adminOnly: false, member: 'loginId', statuses: Object.values(ChargeStatus.values).map((v) => [String(v), ChargeStatus.label(v)]) },
  {
    kind: 'deposits',
    adminOnly: false,
    member: null,
    statuses: [
      ['matched', '자동 연결'],
      ['unmatched', '미확인'],
      ['ambiguous', '후보 여러 건'],
      ['attached', '수동 연결'],
    ],
  },
  { kind: 'ledger', adminOnly: false, member: 'loginId', statuses: [] },
  { kind: 'members', adminOnly: true, member: null, statuses: [] },
  { kind: 'audit', adminOnly: true, member: 'actor', statuses: [] },
];
const kstToday = (offsetDays = 0) => new Date(Date.now() + 9 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);

/**
 * Issue 41: CSV exports of orders, top-ups, deposits and the ledger (operators) and of members and
 * the audit log (admins), for a KST date range and a filter. The BFF streams the file; the browser
 * saves it.
 */
export default function ExportsPage() {
  const admin = useAuth().profile?.role === 'admin';
  const ids = { kind: useId(), from: useId(), to: useId(), member: useId(), status: useId() };
  const available = kinds.filter((k) => admin || !k.adminOnly);
  const [kind, setKind] = useState<Kind>('orders');
  const [from, setFrom] = useState(kstToday(-29));
  const [to, setTo] = useState(kstToday());
  const [member, setMember] = useState('');
  const [status, setStatus] = useState('');
  const [state, setState] = useState<{ busy: boolean; message: string | null; failed: boolean }>({ busy: false, message: null, failed: false });
  const spec = kinds.find((k) => k.kind === kind)!;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const query = new URLSearchParams();
    if (from) query.set('from', from);
    if (to) query.set('to', to);
    if (spec.member && member.trim() !== '') query.set('loginId', member.trim());
    if (status !== '') query.set('status', status);
    setState({ busy: true, message: null, failed: false });
    try {
      const name = await download(`/admin/exports/${kind}.csv?${query.toString()}`, `${t.exportKinds[kind]}.csv`);
      setState({ busy: false, message: t.downloaded(name), failed: false });
    } catch {
      setState({ busy: false, message: t.downloadFailed, failed: true });
    }
  };

  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.exportsTitle}</h1>
        <p className={ui.pageLead}>{t.exportsLead}</p>
      </header>
      <section className={ui.card}>
        <form className={p.controls} onSubmit={(e) => void submit(e)} aria-label={t.exportsTitle}>
          <span className={p.field}>
            <label htmlFor={ids.kind} className={p.fieldLabel}>
              {t.exportKind}
            </label>
            <select
              id={ids.kind}
              className={`${ui.input} ${s.searchInput}`}
              style={{ width: 150, maxWidth: '100%' }}
              value={kind}
              onChange={(e) => {
                setKind(e.target.value as Kind);
                setStatus('');
              }}
            >
              {available.map((k) => (
                <option key={k.kind} value={k.kind}>
                  {t.exportKinds[k.kind]}
                </option>
              ))}
            </select>
          </span>
          <span className={p.field}>
            <label htmlFor={ids.from} className={p.fieldLabel}>
              {t.from}
            </label>
            <input id={ids.from} type="date" className={`${ui.input} ${s.searchInput}`} style={{ width: 160, maxWidth: '100%' }} value={from} onChange={(e) => setFrom(e.target.value)} />
          </span>
          <span className={p.field}>
            <label htmlFor={ids.to} className={p.fieldLabel}>
              {t.to}
            </label>
            <input id={ids.to} type="date" className={`${ui.input} ${s.searchInput}`} style={{ width: 160, maxWidth: '100%' }} value={to} onChange={(e) => setTo(e.target.value)} />
          </span>
          {spec.member && (
            <span className={p.field}>
              <label htmlFor={ids.member} className={p.fieldLabel}>
                {spec.member === 'actor' ? t.actorLoginId : t.loginId}
              </label>
              <input id={ids.member} className={`${ui.input} ${s.searchInput}`} style={{ width: 160, maxWidth: '100%' }} value={member} onChange={(e) => setMember(e.target.value)} />
            </span>
          )}
          {spec.statuses.length > 0 && (
            <span className={p.field}>
              <label htmlFor={ids.status} className={p.fieldLabel}>
                {t.status}
              </label>
              <select id={ids.status} className={`${ui.input} ${s.searchInput}`} style={{ width: 150, maxWidth: '100%' }} value={status} onChange={(e) => setStatus(e.target.value)}>
                <option value="">{t.any}</option>
                {spec.statuses.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </span>
          )}
          <button type="submit" className={`${ui.button.primary} ${ui.small}`} disabled={state.busy}>
            {state.busy ? t.downloading : t.download}
          </button>
        </form>
        {state.message && (
          <p className={state.failed ? s.warnText : p.note} role={state.failed ? 'alert' : 'status'} data-testid="export-result">
            {state.message}
          </p>
        )}
        <p className={p.note}>{t.adminOnlyKinds}</p>
      </section>
    </>
  );
}
