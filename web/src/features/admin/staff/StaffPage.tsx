import type { OperatorListBody, OperatorRowBody } from '@smm/contracts/http';
import { type FormEvent, useId, useState } from 'react';
import useSWR from 'swr';
import { useAuth } from '../../../auth/auth.tsx';
import { api, messageOf, post } from '../../../lib/api.ts';
import { dateTime } from '../../../lib/format.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { useToast } from '../../../ui/toast.tsx';
import * as ui from '../../../ui/ui.css.ts';
import { ConsoleTable } from '../ConsoleTable.tsx';
import { FormDialog } from '../FormDialog.tsx';
import { staffText as t } from './messages.ts';
import * as s from './staff.css.ts';

type Operator = OperatorRowBody;
type Role = 'staff' | 'admin' | 'member';
const areaKeys = Object.keys(t.areas);
type Pending = { kind: 'disable' | 'enable' | 'reset'; operator: Operator };

/**
 * Issue 41: admins manage operators — add one (a new account with a temporary password, or an
 * existing member), set admin or staff and a staff member's menus, disable or enable an account
 * and reset a lost second factor. The server refuses the same for staff and for one's own account.
 */
export default function StaffPage() {
  const auth = useAuth();
  const toast = useToast();
  const list = useSWR<OperatorListBody>('/admin/operators');
  const rows = list.data?.items ?? [];
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Operator | null>(null);
  const [created, setCreated] = useState<{ loginId: string; initialPassword: string | null } | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const me = auth.profile?.userId;

  async function act() {
    if (!pending) return;
    setBusy(true);
    try {
      const path = { disable: 'disable', enable: 'enable', reset: 'two-factor/reset' }[pending.kind];
      await post(`/admin/operators/${encodeURIComponent(pending.operator.userId)}/${path}`);
      toast.success(t.done);
      setPending(null);
      await list.mutate();
    } catch (caught) {
      toast.error(messageOf(caught, t.failed));
    } finally {
      setBusy(false);
    }
  }

  const confirmText = pending && {
    disable: { title: t.disableTitle(pending.operator.loginId), lead: t.disableLead, label: t.disable, tone: 'danger' as const },
    enable: { title: t.enableTitle(pending.operator.loginId), lead: t.enableLead, label: t.enable, tone: 'primary' as const },
    reset: { title: t.resetTitle(pending.operator.loginId), lead: t.resetLead, label: t.resetTwoFactor, tone: 'danger' as const },
  }[pending.kind];

  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.title}</h1>
        <p className={ui.pageLead}>{t.lead}</p>
      </header>
      <div className={s.toolbar}>
        <span className={list.data?.twoFactorRequired ? ui.badge.success : ui.badge.neutral} data-testid="two-factor-policy">
          {list.data?.twoFactorRequired ? t.twoFactorRequired : t.twoFactorOptional}
        </span>
        <button type="button" className={ui.button.primary} onClick={() => setAdding(true)}>
          {t.add}
        </button>
      </div>
      <ConsoleTable
        label={t.title}
        list={list}
        rows={rows.length}
        columns={[t.columns.loginId, t.columns.role, t.columns.areas, t.columns.twoFactor, t.columns.state, t.columns.createdAt, t.columns.actions]}
        emptyText={t.empty}
        failedText={t.loadFailed}
      >
        {rows.map((o) => {
          const self = o.userId === me;
          return (
            <tr key={o.userId} data-testid={`operator-${o.loginId}`}>
              <td className={ui.td}>
                {o.loginId} {self && <span className={ui.badge.neutral}>{t.you}</span>}
              </td>
              <td className={ui.td}>
                <span className={o.role === 'admin' ? ui.badge.primary : ui.badge.neutral}>{t.roles[o.role]}</span>
              </td>
              <td className={ui.tdWrap}>{o.role === 'admin' || o.areas.length === areaKeys.length ? t.allAreas : o.areas.map((a) => t.areas[a] ?? a).join(', ')}</td>
              <td className={ui.td}>
                <span className={o.twoFactor ? ui.badge.success : ui.badge.warning}>{o.twoFactor ? t.twoFactorOn : t.twoFactorOff}</span>
              </td>
              <td className={ui.td}>
                <span className={o.disabled ? ui.badge.danger : ui.badge.success}>{o.disabled ? t.disabled : t.active}</span>
              </td>
              <td className={ui.td}>{dateTime(o.createdAt).slice(0, 10)}</td>
              <td className={ui.td}>
                {self ? (
                  <span className={ui.muted}>{t.youNote}</span>
                ) : (
                  <span className={s.actions}>
                    <button type="button" className={`${ui.button.secondary} ${ui.small}`} onClick={() => setEditing(o)}>
                      {t.edit}
                    </button>
                    <button type="button" className={`${ui.button.secondary} ${ui.small}`} onClick={() => setPending({ kind: o.disabled ? 'enable' : 'disable', operator: o })}>
                      {o.disabled ? t.enable : t.disable}
                    </button>
                    {o.twoFactor && (
                      <button type="button" className={`${ui.button.ghost} ${ui.small}`} onClick={() => setPending({ kind: 'reset', operator: o })}>
                        {t.resetTwoFactor}
                      </button>
                    )}
                  </span>
                )}
              </td>
            </tr>
          );
        })}
      </ConsoleTable>
      {adding && (
        <OperatorDialog
          onClose={() => setAdding(false)}
          onSaved={async (answer) => {
            setAdding(false);
            setCreated(answer);
            await list.mutate();
          }}
        />
      )}
      {editing && (
        <OperatorDialog
          operator={editing}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null);
            toast.success(t.done);
            await list.mutate();
          }}
        />
      )}
      {created && <CreatedDialog created={created} onClose={() => setCreated(null)} />}
      {pending && confirmText && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setPending(null)}
          title={confirmText.title}
          description={confirmText.lead}
          confirmLabel={confirmText.label}
          tone={confirmText.tone}
          busy={busy}
          onConfirm={() => void act()}
        />
      )}
    </>
  );
}

/** Add an operator, or change one's role and menus. */
function OperatorDialog({ operator, onClose, onSaved }: { operator?: Operator; onClose(): void; onSaved(answer: { loginId: string; initialPassword: string | null }): Promise<void> }) {
  const ids = { loginId: useId(), role: useId() };
  const [loginId, setLoginId] = useState('');
  const [role, setRole] = useState<Role>(operator?.role ?? 'staff');
  const [areas, setAreas] = useState<string[]>(operator?.areas ?? []);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save(event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    if (!operator && loginId.trim() === '') return setError(t.loginIdRequired);
    if (role === 'staff' && areas.length === 0) return setError(t.areasRequired);
    setBusy(true);
    setError(null);
    try {
      const body = { role, ...(role === 'staff' && { areas: areaKeys.filter((a) => areas.includes(a)) }) };
      if (operator) {
        await api(`/admin/operators/${encodeURIComponent(operator.userId)}`, { method: 'PUT', body });
        await onSaved({ loginId: operator.loginId, initialPassword: null });
      } else {
        const answer = await post<Operator & { initialPassword: string | null }>('/admin/operators', { loginId: loginId.trim(), ...body });
        await onSaved({ loginId: answer.loginId, initialPassword: answer.initialPassword });
      }
    } catch (caught) {
      setError(messageOf(caught, t.failed));
    } finally {
      setBusy(false);
    }
  }

  const roles: Role[] = operator ? ['staff', 'admin', 'member'] : ['staff', 'admin'];
  return (
    <FormDialog
      title={operator ? t.editTitle(operator.loginId) : t.add}
      description={operator ? t.editLead : t.loginIdHint}
      confirmLabel={operator ? t.save : t.create}
      closeLabel={t.cancel}
      busy={busy}
      onClose={onClose}
      onConfirm={() => void save()}
    >
      <form className={s.form} onSubmit={(e) => void save(e)} noValidate>
        {!operator && (
          <div className={ui.field}>
            <label htmlFor={ids.loginId} className={ui.label}>
              {t.loginId}
            </label>
            <input id={ids.loginId} className={ui.input} value={loginId} autoComplete="off" onChange={(e) => setLoginId(e.target.value)} />
          </div>
        )}
        <fieldset className={s.fieldset}>
          <legend className={ui.label}>{t.role}</legend>
          <div className={ui.row}>
            {roles.map((r) => (
              <label key={r} className={ui.checkbox}>
                <input type="radio" name={ids.role} className={ui.checkboxInput} checked={role === r} onChange={() => setRole(r)} />
                {r === 'member' ? t.toMember : t.roles[r]}
              </label>
            ))}
          </div>
        </fieldset>
        {role === 'staff' ? (
          <fieldset className={s.fieldset}>
            <legend className={ui.label}>{t.areasLabel}</legend>
            <div className={s.areaGrid}>
              {areaKeys.map((a) => (
                <label key={a} className={ui.checkbox}>
                  <input
                    type="checkbox"
                    className={ui.checkboxInput}
                    checked={areas.includes(a)}
                    onChange={(e) => setAreas(e.target.checked ? [...areas, a] : areas.filter((x) => x !== a))}
                  />
                  {t.areas[a]}
                </label>
              ))}
            </div>
          </fieldset>
        ) : role === 'admin' ? (
          <p className={ui.hint}>{t.adminAreasNote}</p>
        ) : null}
        {error !== null && (
          <p className={ui.errorText} role="alert">
            {error}
          </p>
        )}
      </form>
    </FormDialog>
  );
}

/** The temporary password of a new account, shown this once. */
function CreatedDialog({ created, onClose }: { created: { loginId: string; initialPassword: string | null }; onClose(): void }) {
  const toast = useToast();
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t.createdTitle}
      description={created.initialPassword === null ? t.promotedLead(created.loginId) : t.createdLead(created.loginId)}
      confirmLabel={t.close}
      onConfirm={onClose}
    >
      {created.initialPassword !== null && (
        <div className={s.passwordRow}>
          <code className={s.password} data-testid="initial-password">
            {created.initialPassword}
          </code>
          <button
            type="button"
            className={`${ui.button.secondary} ${ui.small}`}
            onClick={() => void navigator.clipboard?.writeText(created.initialPassword!).then(() => toast.success(t.copied), () => undefined)}
          >
            {t.copy}
          </button>
        </div>
      )}
    </ConfirmDialog>
  );
}
