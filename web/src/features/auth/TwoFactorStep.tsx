import type { BrowserSessionBody, TwoFactorSecretBody } from '@smm/contracts/http';
import { type FormEvent, useId, useState } from 'react';
import { ApiError, messageOf, post } from '../../lib/api.ts';
import { useToast } from '../../ui/toast.tsx';
import { useSubmitOnce } from '../../ui/use-submit-once.ts';
import * as ui from '../../ui/ui.css.ts';
import * as s from './auth.css.ts';
import * as f from './two-factor.css.ts';
import { twoFactorText as t } from './two-factor-text.ts';

/** What `POST /api/auth/login` answers an operator who must pass a second factor (issue 41). */
export type TwoFactorChallenge = { twoFactor: 'verify' | 'enrol'; challenge: string };
export const isTwoFactorChallenge = (body: unknown): body is TwoFactorChallenge =>
  typeof body === 'object' && body !== null && typeof (body as TwoFactorChallenge).challenge === 'string' && ['verify', 'enrol'].includes((body as TwoFactorChallenge).twoFactor);

const groups = (key: string) => key.match(/.{1,4}/g)?.join(' ') ?? key;

/**
 * The sign-in card's second step for operators: a code from the authenticator app (or a recovery
 * code), or — while the site requires it and the operator has none — enrolment: the key for the
 * app, the first code, then the ten recovery codes shown once before the console opens.
 */
export function TwoFactorStep({ step, onSignedIn, onRestart }: { step: TwoFactorChallenge; onSignedIn(accessToken: string): void; onRestart(message?: string): void }) {
  const toast = useToast();
  const submitting = useSubmitOnce();
  const codeField = useId();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<TwoFactorSecretBody | null>(null);
  const [done, setDone] = useState<{ accessToken: string; recoveryCodes: string[] } | null>(null);

  const fail = (caught: unknown) => {
    // The step expired or was spent: back to the password, with the server's words.
    if (caught instanceof ApiError && caught.code === 'TWO_FACTOR_CHALLENGE_INVALID') return onRestart(caught.message);
    const message = messageOf(caught, t.failed);
    setError(message);
    toast.error(message);
  };

  async function getKey() {
    await submitting.run(async () => {
      try {
        setSecret(await post<TwoFactorSecretBody>('/auth/login/two-factor/enrolment', { challenge: step.challenge }));
        setError(null);
      } catch (caught) {
        fail(caught);
      }
    });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting.isPending()) return;
    const value = code.trim();
    if (value === '') return setError(recovery ? t.recoveryRequired : t.codeRequired);
    await submitting.run(async () => {
      try {
        if (step.twoFactor === 'enrol') {
          const answer = await post<BrowserSessionBody & { recoveryCodes: string[] }>('/auth/login/two-factor/enrolment/confirm', { challenge: step.challenge, code: value });
          toast.success(t.enrolled);
          setDone({ accessToken: answer.accessToken, recoveryCodes: answer.recoveryCodes });
        } else {
          const answer = await post<BrowserSessionBody>('/auth/login/two-factor', { challenge: step.challenge, ...(recovery ? { recoveryCode: value } : { code: value }) });
          onSignedIn(answer.accessToken);
        }
      } catch (caught) {
        fail(caught);
      }
    });
  }

  const copy = (text: string, told: string) => void navigator.clipboard?.writeText(text).then(() => toast.success(told), () => undefined);

  if (done) {
    return (
      <>
        <header>
          <h1 id="login-title" className={s.title}>{t.recoveryTitle}</h1>
          <p className={s.lead}>{t.recoveryCodesLead}</p>
        </header>
        <ul className={f.codes} aria-label={t.recoveryTitle} data-testid="recovery-codes">
          {done.recoveryCodes.map((c) => (
            <li key={c} className={f.code}>
              {c}
            </li>
          ))}
        </ul>
        <button type="button" className={`${ui.button.secondary} ${ui.block}`} onClick={() => copy(done.recoveryCodes.join('\n'), t.codesCopied)}>
          {t.copyCodes}
        </button>
        <button type="button" className={`${ui.button.primary} ${ui.block}`} style={{ minHeight: 50 }} onClick={() => onSignedIn(done.accessToken)}>
          {t.saved}
        </button>
      </>
    );
  }

  const enrolling = step.twoFactor === 'enrol';
  const showForm = !enrolling || secret !== null;
  return (
    <>
      <header>
        <h1 id="login-title" className={s.title}>{enrolling ? t.enrolTitle : t.verifyTitle}</h1>
        <p className={s.lead}>{enrolling ? t.enrolLead : recovery ? t.recoveryLead : t.verifyLead}</p>
      </header>
      {enrolling && (
        <ol className={f.steps}>
          {t.enrolSteps.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ol>
      )}
      {enrolling && secret === null && (
        <button type="button" className={`${ui.button.primary} ${ui.block}`} onClick={() => void getKey()} disabled={submitting.busy} style={{ minHeight: 50 }}>
          {submitting.busy ? t.gettingKey : t.getKey}
        </button>
      )}
      {enrolling && secret !== null && (
        <div className={ui.field}>
          <span className={ui.label}>{t.keyLabel}</span>
          <div className={f.secretBox} data-testid="totp-secret" data-secret={secret.secret}>
            {groups(secret.secret)}
          </div>
          <div className={ui.row}>
            <button type="button" className={`${ui.button.secondary} ${ui.small}`} onClick={() => copy(secret.secret, t.copied)}>
              {t.copyKey}
            </button>
            <a className={ui.link} href={secret.otpauthUri}>
              {t.openInApp}
            </a>
          </div>
        </div>
      )}
      {showForm && (
        <form className={s.form} onSubmit={submit} noValidate>
          <div className={ui.field}>
            <label htmlFor={codeField} className={ui.label}>{recovery ? t.recoveryCode : t.code}</label>
            <input
              id={codeField}
              className={`${ui.input} ${recovery ? '' : f.codeInput}`}
              autoComplete="one-time-code"
              inputMode={recovery ? 'text' : 'numeric'}
              maxLength={recovery ? 20 : 7}
              placeholder={recovery ? t.recoveryPlaceholder : t.codePlaceholder}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              aria-invalid={error !== null || undefined}
              aria-describedby={error !== null ? 'two-factor-error' : undefined}
              autoFocus
            />
          </div>
          {error !== null && (
            <p id="two-factor-error" className={s.formError} role="alert">
              {error}
            </p>
          )}
          <button type="submit" className={`${ui.button.primary} ${ui.block}`} disabled={submitting.busy} style={{ minHeight: 50 }}>
            {submitting.busy ? t.confirming : enrolling ? t.finishEnrol : t.confirm}
          </button>
        </form>
      )}
      {!enrolling && (
        <button
          type="button"
          className={f.switchLink}
          onClick={() => {
            setRecovery(!recovery);
            setCode('');
            setError(null);
          }}
        >
          {recovery ? t.useApp : t.useRecovery}
        </button>
      )}
      <p className={s.foot}>
        <button type="button" className={f.switchLink} onClick={() => onRestart()}>
          {t.restart}
        </button>
      </p>
    </>
  );
}
