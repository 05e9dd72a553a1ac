import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAuth } from '../../auth/auth.tsx';
import { CopyIcon } from '../../layout/icons.tsx';
import { ApiError, markOwnPasswordChange, messageOf, post } from '../../lib/api.ts';
import { storage } from '../../lib/storage.ts';
import { won } from '../../lib/format.ts';
import { keys, useSettings } from '../../lib/settings.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { useToast } from '../../ui/toast.tsx';
import * as ui from '../../ui/ui.css.ts';
import { accountText as t } from './messages.ts';
import { passwordChangeErrorMessage, validatePasswordChange } from './password-form.ts';
import { ReferralEarnings } from './ReferralEarnings.tsx';
import type { PasswordField } from './password-form.ts';
import { useSubmitOnce } from '../../ui/use-submit-once.ts';

function CopyButton({ value, label }: { value: string; label: string }) {
  const toast = useToast();
  return (
    <button type="button" className={`${ui.button.secondary} ${ui.small}`} aria-label={`${label} ${t.copy}`} onClick={() => void navigator.clipboard?.writeText(value).then(() => toast.success(t.copied))}>
      <CopyIcon /> {t.copy}
    </button>
  );
}

const codeStyle = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontWeight: 700, fontSize: 15, wordBreak: 'break-all' } as const;

function ReferralBlock() {
  const auth = useAuth();
  const settings = useSettings();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const code = auth.profile?.referralCode ?? null;
  const enabled = settings.enabled(keys.enableReferral);
  async function issue() {
    if (busy) return;
    setBusy(true);
    try {
      await post('/auth/referral-code');
      toast.success(t.referralIssued);
      await auth.refreshProfile();
    } catch (error) {
      toast.error(messageOf(error, t.referralOff));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className={ui.card} aria-labelledby="referral-title">
      <h2 id="referral-title" className={ui.cardTitle}>{t.referral}</h2>
      <p className={ui.hint} style={{ marginBottom: 12 }}>{t.referralLead}</p>
      {code ? (
        <div className={ui.callout} style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 12 }}>
          <span style={codeStyle} data-testid="referral-code">{code}</span>
          <CopyButton value={code} label={t.referral} />
        </div>
      ) : enabled ? (
        <div className={ui.row} style={{ justifyContent: 'space-between' }}>
          <span className={ui.muted}>{t.referralNone}</span>
          <button type="button" className={ui.button.soft} onClick={() => void issue()} disabled={busy}>{t.referralIssue}</button>
        </div>
      ) : (
        <p className={ui.muted}>{t.referralOff}</p>
      )}
    </section>
  );
}

function PasswordBlock() {
  const submitting = useSubmitOnce();
  const auth = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const [values, setValues] = useState({ currentPassword: '', newPassword: '', confirm: '' });
  const [problem, setProblem] = useState<{ field: PasswordField; message: string } | null>(null);
  const base = useId();
  const id = (f: PasswordField) => `${base}-${f}`;
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting.isPending()) return;
    const found = validatePasswordChange(values);
    setProblem(found);
    if (found) {
      document.getElementById(id(found.field))?.focus();
      return;
    }
    await submitting.run(async () => {
      try {
        // This page's own live stream hears the change too: here it is no news (issue 40).
        markOwnPasswordChange();
        await post('/auth/change-password', { currentPassword: values.currentPassword, newPassword: values.newPassword });
        // The member's other tabs in this browser sign out now, saying why (layout/SessionEnded.tsx).
        storage.markPasswordChanged();
        toast.success(t.changed);
        // Spec §4: after a successful password change the member is logged out.
        auth.signOut();
        navigate('/login', { replace: true });
      } catch (error) {
        const status = error instanceof ApiError ? error.status : 0;
        const message = status === 400 || status === 429 ? messageOf(error, t.genericError) : passwordChangeErrorMessage(status);
        setProblem({ field: status === 409 ? 'currentPassword' : 'newPassword', message });
        toast.error(message);
      }
    });
  }
  const field = (f: PasswordField, label: string, autoComplete: string) => (
    <div className={ui.field}>
      <label htmlFor={id(f)} className={ui.label}>{label}</label>
      <input
        id={id(f)}
        type="password"
        className={ui.input}
        autoComplete={autoComplete}
        placeholder={f === 'currentPassword' ? undefined : t.passwordPlaceholder}
        value={values[f]}
        onChange={(e) => {
          setValues({ ...values, [f]: e.target.value });
          setProblem(null);
        }}
        aria-invalid={problem?.field === f || undefined}
      />
      {problem?.field === f && <p className={ui.errorText} role="alert">{problem.message}</p>}
    </div>
  );
  return (
    <section className={ui.card} aria-labelledby="password-title">
      <h2 id="password-title" className={ui.cardTitle}>{t.password}</h2>
      <form className={ui.stack} onSubmit={submit} noValidate>
        <input type="text" autoComplete="username" value={auth.profile?.id ?? ''} readOnly hidden />
        {field('currentPassword', t.current, 'current-password')}
        {field('newPassword', t.next, 'new-password')}
        {field('confirm', t.confirm, 'new-password')}
        <button type="submit" className={ui.button.primary} disabled={submitting.busy} style={{ alignSelf: 'flex-start' }}>{t.change}</button>
      </form>
    </section>
  );
}

function ApiKeyBlock() {
  const auth = useAuth();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [fresh, setFresh] = useState<string | null>(null);
  const masked = auth.profile?.apiKey ?? null;
  async function renew() {
    if (busy) return;
    setBusy(true);
    try {
      const answer = await post<{ apiKey: string }>('/auth/api-key');
      setFresh(answer.apiKey);
      setOpen(false);
      toast.success(t.apiKeyRenewed);
      void auth.refreshProfile();
    } catch (error) {
      toast.error(messageOf(error, t.genericError));
    } finally {
      setBusy(false);
    }
  }
  const shown = fresh ?? masked;
  return (
    <section className={ui.card} aria-labelledby="apikey-title">
      <h2 id="apikey-title" className={ui.cardTitle}>{t.apiKey}</h2>
      <p className={ui.hint} style={{ marginBottom: 12 }}>{t.apiKeyLead}</p>
      <div className={ui.callout} style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        {shown ? (
          <span style={codeStyle} data-testid="api-key">{shown}</span>
        ) : (
          <span className={ui.muted} data-testid="api-key">{t.apiKeyNone}</span>
        )}
        {fresh && <CopyButton value={fresh} label={t.apiKey} />}
      </div>
      {fresh && <p className={ui.hint} role="note" style={{ marginTop: 8, fontWeight: 700 }}>{t.apiKeyOnce}</p>}
      <div className={ui.row} style={{ marginTop: 14 }}>
        <button type="button" className={ui.button.soft} onClick={() => setOpen(true)}>{masked ? t.apiKeyRenew : t.apiKeyIssue}</button>
        <Link to="/api" className={ui.button.ghost}>{t.apiDocs}</Link>
      </div>
      <ConfirmDialog open={open} onOpenChange={setOpen} title={t.apiKeyRenewTitle} description={t.apiKeyRenewBody} confirmLabel={masked ? t.apiKeyRenew : t.apiKeyIssue} busy={busy} onConfirm={() => void renew()} />
    </section>
  );
}

export default function AccountPage() {
  const auth = useAuth();
  const idField = useId();
  return (
    <div className={ui.page} style={{ maxWidth: 760 }}>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.title}</h1>
        <p className={ui.pageLead}>{t.lead}</p>
      </header>
      <section className={ui.card} aria-labelledby="info-title">
        <h2 id="info-title" className={ui.cardTitle}>{t.info}</h2>
        <div className={ui.stack}>
          <div className={ui.field}>
            <label htmlFor={idField} className={ui.label}>{t.id}</label>
            <input id={idField} className={ui.input} value={auth.profile?.id ?? ''} readOnly />
          </div>
          <div className={ui.row} style={{ justifyContent: 'space-between' }}>
            <span className={ui.label}>{t.balance}</span>
            <strong style={{ fontSize: 18 }}>{won(auth.profile?.pointDeci ?? 0)}</strong>
          </div>
        </div>
      </section>
      <ReferralBlock />
      {auth.profile && !auth.isGuest && <ReferralEarnings />}
      <PasswordBlock />
      <ApiKeyBlock />
    </div>
  );
}
