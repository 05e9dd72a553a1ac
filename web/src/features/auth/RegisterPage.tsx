import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import useSWR from 'swr';
import { ApiError, messageOf, post } from '../../lib/api.ts';
import { keys, useSettings } from '../../lib/settings.ts';
import type { RegisterWhere } from '../../lib/types.ts';
import { useToast } from '../../ui/toast.tsx';
import * as ui from '../../ui/ui.css.ts';
import * as s from './auth.css.ts';
import { codeLength, phoneDigits, sendButtonState, sendCodeErrorMessage, validatePhone, validateRegister } from './auth-rules.ts';
import type { Problem, RegisterField } from './auth-rules.ts';
import { authText as t } from './messages.ts';
import { useSubmitOnce } from '../../ui/use-submit-once.ts';

type Provider = 'naver' | 'kakao' | null;

export default function RegisterPage({ provider }: { provider: Provider }) {
  const submitting = useSubmitOnce();
  const settings = useSettings();
  const toast = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  const socialToken = (location.state as { accessToken?: unknown } | null)?.accessToken;
  const { data: registerWhere } = useSWR<RegisterWhere[]>('/service/register-where');
  const phoneVerification = settings.enabled(keys.enablePhoneVerification);
  const referralOn = settings.enabled(keys.enableReferral);

  const [account, setAccount] = useState({ id: '', email: '', password: '', passwordConfirm: '' });
  const [where, setWhere] = useState('');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [referral, setReferral] = useState('');
  // The number the last code went to, and when the server allows the next send to it.
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [resendAt, setResendAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [sending, setSending] = useState(false);
  const codeSent = sentTo !== null && sentTo === phoneDigits(phone);
  const secondsLeft = codeSent ? Math.max(0, Math.ceil((resendAt - now) / 1000)) : 0;
  const sendButton = sendButtonState(codeSent, secondsLeft);
  const counting = secondsLeft > 0;
  useEffect(() => {
    if (!counting) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [counting]);
  const [problem, setProblem] = useState<Problem<RegisterField>>(null);
  const [serverError, setServerError] = useState('');
  const base = useId();
  const fieldId = (name: string) => `${base}-${name}`;

  if (provider && typeof socialToken !== 'string') {
    return (
      <div className={s.wrap}>
        <section className={s.card}>
          <h1 className={s.title}>{provider === 'naver' ? t.registerNaverTitle : t.registerKakaoTitle}</h1>
          <p className={s.formError} role="alert">{t.socialMissing}</p>
          <Link to="/login" className={`${ui.button.primary} ${ui.block}`}>{t.toLogin}</Link>
        </section>
      </div>
    );
  }

  async function sendCode() {
    if (sendButton.disabled || sending) return;
    const invalid = validatePhone(phone);
    if (invalid) {
      setProblem({ field: 'phoneNumber', message: invalid });
      return;
    }
    setSending(true);
    try {
      const digits = phoneDigits(phone);
      const answer = await post<{ resendAfter?: number }>('/auth/send-phone-number', { phoneNumber: digits });
      setSentTo(digits);
      setCode('');
      setNow(Date.now());
      setResendAt(Date.now() + (typeof answer?.resendAfter === 'number' ? answer.resendAfter : 60) * 1000);
      setProblem(null);
      toast.success(t.codeSent);
      window.setTimeout(() => document.getElementById(fieldId('sendCode'))?.focus(), 0);
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      const message = status === 429 ? messageOf(error, sendCodeErrorMessage(status)) : sendCodeErrorMessage(status);
      setProblem({ field: 'phoneNumber', message });
      toast.error(message);
    } finally {
      setSending(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting.isPending()) return;
    const found = validateRegister(
      { account: provider ? undefined : account, registerWhere: where, phoneNumber: phone, sendCode: code },
      { phoneVerification, codeSent },
    );
    setProblem(found);
    setServerError('');
    if (found) {
      document.getElementById(fieldId(found.field))?.focus();
      return;
    }
    const common = {
      registerWhere: where,
      phoneNumber: phoneVerification ? phoneDigits(phone) : null,
      sendCode: phoneVerification ? code.trim() : null,
      referral: referralOn && referral.trim() ? referral.trim() : null,
    };
    const body = provider ? { ...common, accessToken: socialToken } : { id: account.id.trim(), email: account.email.trim(), password: account.password, ...common };
    await submitting.run(async () => {
      try {
        await post(provider ? `/auth/register/${provider}` : '/auth/register', body);
        toast.success(t.registerSuccess);
        navigate('/login');
      } catch (error) {
        const message = messageOf(error, t.registerFailed);
        setServerError(message);
        toast.error(message);
      }
    });
  }

  const invalid = (field: RegisterField) => (problem?.field === field ? true : undefined);
  const fieldError = (field: RegisterField) =>
    problem?.field === field ? (
      <p className={ui.errorText} role="alert">{problem.message}</p>
    ) : null;
  const title = provider === 'naver' ? t.registerNaverTitle : provider === 'kakao' ? t.registerKakaoTitle : t.registerTitle;

  return (
    <div className={s.wrap}>
      <section className={s.card} aria-labelledby="register-title">
        <header>
          <h1 id="register-title" className={s.title}>{title}</h1>
          <p className={s.lead}>{provider ? t.socialLead : t.registerLead}</p>
        </header>
        <form className={s.form} onSubmit={submit} noValidate>
          {!provider && (
            <>
              <div className={ui.field}>
                <label htmlFor={fieldId('id')} className={ui.label}>{t.id}</label>
                <input id={fieldId('id')} className={ui.input} autoComplete="username" placeholder={t.idPlaceholder} value={account.id} onChange={(e) => setAccount({ ...account, id: e.target.value })} aria-invalid={invalid('id')} />
                {fieldError('id')}
              </div>
              <div className={ui.field}>
                <label htmlFor={fieldId('email')} className={ui.label}>{t.email}</label>
                <input id={fieldId('email')} className={ui.input} type="email" autoComplete="email" placeholder={t.emailPlaceholder} value={account.email} onChange={(e) => setAccount({ ...account, email: e.target.value })} aria-invalid={invalid('email')} />
                {fieldError('email')}
              </div>
              <div className={ui.field}>
                <label htmlFor={fieldId('password')} className={ui.label}>{t.password}</label>
                <input id={fieldId('password')} className={ui.input} type="password" autoComplete="new-password" placeholder={t.passwordPlaceholder} value={account.password} onChange={(e) => setAccount({ ...account, password: e.target.value })} aria-invalid={invalid('password')} />
                {fieldError('password')}
              </div>
              <div className={ui.field}>
                <label htmlFor={fieldId('passwordConfirm')} className={ui.label}>{t.passwordConfirm}</label>
                <input id={fieldId('passwordConfirm')} className={ui.input} type="password" autoComplete="new-password" value={account.passwordConfirm} onChange={(e) => setAccount({ ...account, passwordConfirm: e.target.value })} aria-invalid={invalid('passwordConfirm')} />
                {fieldError('passwordConfirm')}
              </div>
            </>
          )}
          <div className={ui.field}>
            <label htmlFor={fieldId('registerWhere')} className={ui.label}>{t.registerWhere}</label>
            <select id={fieldId('registerWhere')} className={ui.input} value={where} onChange={(e) => setWhere(e.target.value)} aria-invalid={invalid('registerWhere')}>
              <option value="">{t.registerWherePlaceholder}</option>
              {(registerWhere ?? []).map((option, i) => (
                <option key={option.id ?? i} value={option.text}>{option.text}</option>
              ))}
            </select>
            {fieldError('registerWhere')}
          </div>
          {phoneVerification && (
            <>
              <div className={ui.field}>
                <label htmlFor={fieldId('phoneNumber')} className={ui.label}>{t.phone}</label>
                <div className={s.inline}>
                  <input id={fieldId('phoneNumber')} className={ui.input} type="tel" inputMode="numeric" autoComplete="tel" placeholder={t.phonePlaceholder} value={phone} onChange={(e) => setPhone(e.target.value)} aria-invalid={invalid('phoneNumber')} />
                  <button type="button" className={ui.button.secondary} onClick={() => void sendCode()} disabled={sendButton.disabled || sending} aria-live="polite">
                    {sendButton.label}
                  </button>
                </div>
                {fieldError('phoneNumber')}
                {codeSent && <p className={ui.muted}>{t.resendHint}</p>}
              </div>
              {codeSent && (
                <div className={ui.field}>
                  <label htmlFor={fieldId('sendCode')} className={ui.label}>{t.code}</label>
                  <input id={fieldId('sendCode')} className={ui.input} inputMode="numeric" autoComplete="one-time-code" maxLength={codeLength} placeholder={t.codePlaceholder} value={code} onChange={(e) => setCode(e.target.value)} aria-invalid={invalid('sendCode')} />
                  {fieldError('sendCode')}
                </div>
              )}
            </>
          )}
          {referralOn && (
            <div className={ui.field}>
              <label htmlFor={fieldId('referral')} className={ui.label}>{t.referral}</label>
              <input id={fieldId('referral')} className={ui.input} placeholder={t.referralPlaceholder} value={referral} onChange={(e) => setReferral(e.target.value)} />
            </div>
          )}
          {serverError && <p className={s.formError} role="alert">{serverError}</p>}
          <button type="submit" className={`${ui.button.primary} ${ui.block}`} disabled={submitting.busy} style={{ minHeight: 50 }}>
            {submitting.busy ? t.registering : t.submitRegister}
          </button>
        </form>
        <p className={s.foot}>
          {t.haveAccount}{' '}
          <Link to="/login" className={ui.link}>{t.toLogin}</Link>
        </p>
      </section>
    </div>
  );
}
