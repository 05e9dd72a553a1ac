import type { BrowserSessionBody } from '@smm/contracts/http';
import { useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAuth } from '../../auth/auth.tsx';
import { ApiError, post } from '../../lib/api.ts';
import { keys, useSettings } from '../../lib/settings.ts';
import { storage } from '../../lib/storage.ts';
import { useToast } from '../../ui/toast.tsx';
import * as ui from '../../ui/ui.css.ts';
import * as s from './auth.css.ts';
import { loginErrorMessage, validateLogin } from './auth-rules.ts';
import type { LoginField, Problem } from './auth-rules.ts';
import { authText as t } from './messages.ts';
import { kakaoLogin, naverLogin } from './social.ts';
import type { SocialResult } from './social.ts';
import { useSubmitOnce } from '../../ui/use-submit-once.ts';
import { roleOfToken } from '../../auth/token-role.ts';
import { isOperatorRole } from '../../lib/contracts.ts';
import { type TwoFactorChallenge, TwoFactorStep, isTwoFactorChallenge } from './TwoFactorStep.tsx';

export default function LoginPage() {
  const submitting = useSubmitOnce();
  const auth = useAuth();
  const settings = useSettings();
  const toast = useToast();
  const navigate = useNavigate();
  const saved = storage.savedId();
  const [id, setId] = useState(saved ?? '');
  const [password, setPassword] = useState('');
  const [saveId, setSaveId] = useState(saved !== null);
  const [problem, setProblem] = useState<Problem<LoginField>>(null);
  // Issue 41: an operator's second factor after the password.
  const [twoFactor, setTwoFactor] = useState<TwoFactorChallenge | null>(null);
  const idField = useId();
  const passwordField = useId();
  const refs = { id: useRef<HTMLInputElement>(null), password: useRef<HTMLInputElement>(null) };

  function finish(accessToken: string) {
    auth.signIn(accessToken);
    toast.success(t.loginSuccess);
    // Operators land on the console (issue 12); members on the order screen.
    navigate(isOperatorRole(roleOfToken(accessToken)) ? '/admin' : '/order');
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting.isPending()) return;
    const found = validateLogin({ id, password });
    setProblem(found);
    if (found) {
      refs[found.field].current?.focus();
      return;
    }
    await submitting.run(async () => {
      try {
        const answer = await post<BrowserSessionBody | TwoFactorChallenge>('/auth/login', { id: id.trim(), password });
        storage.setSavedId(saveId ? id.trim() : null);
        if (isTwoFactorChallenge(answer)) {
          setPassword('');
          setTwoFactor(answer);
        } else finish(answer.accessToken);
      } catch (error) {
        const status = error instanceof ApiError ? error.status : 0;
        // Too many attempts and a restriction (level, reason, end: issue 12) are told as the server says.
        const told = error instanceof ApiError && error.message !== '' && (status === 429 || error.code === 'MEMBER_SUSPENDED' || error.code === 'MEMBER_BANNED');
        const message = told ? error.message : loginErrorMessage(status);
        setProblem({ field: 'password', message });
        toast.error(message);
      }
    });
  }

  function onSocial(result: SocialResult) {
    if (result.kind === 'signedIn') finish(result.accessToken);
    else if (result.kind === 'twoFactor') setTwoFactor(result.step);
    else if (result.kind === 'register') navigate(`/register/${result.provider}`, { state: { accessToken: result.accessToken } });
    else if (result.message) toast.error(result.message);
  }

  const naverOn = settings.enabled(keys.enableNaverLogin);
  const kakaoOn = settings.enabled(keys.enableKakaoLogin);

  if (twoFactor) {
    return (
      <div className={s.wrap}>
        <section className={s.card} aria-labelledby="login-title">
          <TwoFactorStep
            step={twoFactor}
            onSignedIn={finish}
            onRestart={(message) => {
              setTwoFactor(null);
              if (message) setProblem({ field: 'password', message });
            }}
          />
        </section>
      </div>
    );
  }

  return (
    <div className={s.wrap}>
      <section className={s.card} aria-labelledby="login-title">
        <header>
          <h1 id="login-title" className={s.title}>{t.loginTitle}</h1>
          <p className={s.lead}>{t.loginLead}</p>
        </header>
        <form className={s.form} onSubmit={submit} noValidate>
          <div className={ui.field}>
            <label htmlFor={idField} className={ui.label}>{t.id}</label>
            <input
              ref={refs.id}
              id={idField}
              name="username"
              className={ui.input}
              autoComplete="username"
              value={id}
              onChange={(e) => setId(e.target.value)}
              aria-invalid={problem?.field === 'id' || undefined}
              aria-describedby={problem?.field === 'id' ? 'login-error' : undefined}
            />
          </div>
          <div className={ui.field}>
            <label htmlFor={passwordField} className={ui.label}>{t.password}</label>
            <input
              ref={refs.password}
              id={passwordField}
              name="password"
              type="password"
              className={ui.input}
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={problem?.field === 'password' || undefined}
              aria-describedby={problem?.field === 'password' ? 'login-error' : undefined}
            />
          </div>
          <label className={ui.checkbox}>
            <input type="checkbox" className={ui.checkboxInput} checked={saveId} onChange={(e) => setSaveId(e.target.checked)} />
            {t.saveId}
          </label>
          {problem && (
            <p id="login-error" className={s.formError} role="alert">
              {problem.message}
            </p>
          )}
          <button type="submit" className={`${ui.button.primary} ${ui.block}`} disabled={submitting.busy} style={{ minHeight: 50 }}>
            {submitting.busy ? t.loggingIn : t.login}
          </button>
        </form>
        {(naverOn || kakaoOn) && (
          <>
            <div className={s.divider}>{t.or}</div>
            <div className={ui.stack} style={{ gap: 10 }}>
              {naverOn && (
                <button
                  type="button"
                  className={`${ui.button.primary} ${ui.block} ${s.naver}`}
                  onClick={() =>
                    void naverLogin({
                      clientId: settings.get(keys.naverClientId),
                      state: settings.get(keys.naverState),
                      redirectUrl: settings.get(keys.naverRedirectUrl),
                    }).then(onSocial)
                  }
                >
                  <strong aria-hidden="true">N</strong> {t.naver}
                </button>
              )}
              {kakaoOn && (
                <button type="button" className={`${ui.button.primary} ${ui.block} ${s.kakao}`} onClick={() => void kakaoLogin(settings.get(keys.kakaoToken)).then(onSocial)}>
                  {t.kakao}
                </button>
              )}
            </div>
          </>
        )}
        <p className={s.foot}>
          {t.noAccount}{' '}
          <Link to="/register" className={ui.link}>
            {t.toRegister}
          </Link>
        </p>
      </section>
    </div>
  );
}
