import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useSWRConfig } from 'swr';
import { CheckIcon, CopyIcon } from '../../layout/icons.tsx';
import { post } from '../../lib/api.ts';
import { dateTime, grouped } from '../../lib/format.ts';
import { keys, useSettings } from '../../lib/settings.ts';
import { receiptTypeLabels, receiptTypes } from '../../lib/statuses.ts';
import type { TopUp } from '../../lib/types.ts';
import { loading } from '../../ui/loading.tsx';
import { useToast } from '../../ui/toast.tsx';
import * as ui from '../../ui/ui.css.ts';
import { pointText as t } from './messages.ts';
import * as s from './point.css.ts';
import {
  addAmount,
  changeReceiptType,
  emptyTopUp,
  feeApplies,
  isMobile,
  quickAdds,
  resetAmount,
  topUpPayload,
  tossLink,
  transferAmount,
  validateTopUp,
} from './point-form.ts';
import type { FeeValue, TopUpField, TopUpForm } from './point-form.ts';
import { useSubmitOnce } from '../../ui/use-submit-once.ts';
import { TopUpHistory } from './TopUpHistory.tsx';

const plainWon = (n: number) => `${grouped(n)}원`;

function Instructions({ topUp, name, onAgain }: { topUp: TopUp; name: string; onAgain(): void }) {
  const settings = useSettings();
  const toast = useToast();
  const account = settings.get(keys.bankingAccountNumber);
  const amount = topUp.transferAmount ?? topUp.point;
  const showToss = settings.enabled(keys.enableTossPayment) && isMobile(navigator.userAgent);
  return (
    <section className={ui.card} aria-labelledby="deposit-title" data-testid="deposit-instructions">
      <div className={ui.stack}>
        <div className={ui.row} style={{ gap: 14 }}>
          <span className={s.doneIcon} aria-hidden="true"><CheckIcon size={24} /></span>
          <div>
            <h2 id="deposit-title" style={{ fontSize: 20, fontWeight: 800 }}>{t.doneTitle}</h2>
            <p className={ui.muted}>{t.doneLead}</p>
          </div>
        </div>
        <dl className={s.dl}>
          <dt className={s.dt}>{t.bank}</dt>
          <dd className={s.dd}>{settings.get(keys.bankingName)}</dd>
          <dt className={s.dt}>{t.account}</dt>
          <dd className={s.dd}>
            <span>{account}</span>
            <button
              type="button"
              className={`${ui.button.secondary} ${ui.small}`}
              onClick={() => void navigator.clipboard?.writeText(account.replace(/[^0-9]/g, '')).then(() => toast.success(t.copied))}
            >
              <CopyIcon /> {t.copy}
            </button>
          </dd>
          <dt className={s.dt}>{t.holder}</dt>
          <dd className={s.dd}>{settings.get(keys.bankingDisplayText)}</dd>
          <dt className={s.dt}>{t.depositAmount}</dt>
          <dd className={s.dd}><span className={s.big}>{plainWon(amount)}</span></dd>
          {topUp.expiresAt && (
            <>
              <dt className={s.dt}>{t.deadline}</dt>
              <dd className={s.dd}>{dateTime(topUp.expiresAt)}</dd>
            </>
          )}
        </dl>
        <ul className={s.infoList}>
          <li>{t.depositorNote(name)}</li>
          <li>{t.autoCancel}</li>
          <li>{t.creditNote}</li>
        </ul>
        {showToss && (
          <a className={`${ui.button.primary} ${ui.block} ${s.toss}`} href={tossLink(amount, account, settings.get(keys.bankingBankCode))}>
            {t.toss}
          </a>
        )}
        <button type="button" className={`${ui.button.secondary} ${ui.block}`} onClick={onAgain}>{t.again}</button>
      </div>
    </section>
  );
}

export default function PointPage() {
  const submitting = useSubmitOnce();
  const settings = useSettings();
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const [form, setForm] = useState<TopUpForm>(emptyTopUp);
  const [problem, setProblem] = useState<{ field: TopUpField; message: string } | null>(null);
  const [done, setDone] = useState<{ topUp: TopUp; name: string } | null>(null);
  const base = useId();
  const id = (name: string) => `${base}-${name}`;
  const feeEnabled = settings.enabled(keys.enablePaymentFee);
  const receiptOn = settings.enabled(keys.enablePaymentType);
  const transfer = transferAmount(form.point, form.feeType, feeEnabled);

  const update = (next: TopUpForm) => {
    setForm(next);
    setProblem(null);
  };
  const setFee = (key: keyof FeeValue, value: string) => update({ ...form, feeValue: { ...form.feeValue, [key]: value } });

  async function submit(event: FormEvent) {
    event.preventDefault();
    // Spec §5: a second submit while one is in flight is ignored.
    if (submitting.isPending()) return;
    const found = validateTopUp(form);
    setProblem(found);
    if (found) {
      document.getElementById(id(found.field))?.focus();
      return;
    }
    await submitting.run(async () => {
      try {
        const topUp = await loading.around(post<TopUp>('/service/point', topUpPayload(form)));
        toast.success(t.success);
        setDone({ topUp, name: form.name.trim() });
        setForm(emptyTopUp);
        void mutate((key) => typeof key === 'string' && key.startsWith('/service/point-history'));
      } catch {
        toast.error(t.failed);
      }
    });
  }

  const fieldError = (field: TopUpField) => (problem?.field === field ? <p className={ui.errorText} role="alert">{problem.message}</p> : null);
  const invalid = (field: TopUpField) => (problem?.field === field ? true : undefined);
  const feeInput = (key: keyof FeeValue & TopUpField, label: string, extra: { placeholder?: string; inputMode?: 'numeric' | 'email'; type?: string } = {}) => (
    <div className={ui.field}>
      <label htmlFor={id(key)} className={ui.label}>{label}</label>
      <input id={id(key)} className={ui.input} value={form.feeValue[key] ?? ''} onChange={(e) => setFee(key, e.target.value)} aria-invalid={invalid(key)} {...extra} />
      {fieldError(key)}
    </div>
  );

  return (
    <div className={ui.page}>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.title}</h1>
        <p className={ui.pageLead}>{t.lead}</p>
      </header>
      <div className={s.layout}>
        {done ? (
          <Instructions topUp={done.topUp} name={done.name} onAgain={() => setDone(null)} />
        ) : (
          <form className={ui.card} onSubmit={submit} noValidate aria-label="충전 신청서">
            <div className={ui.stack} style={{ gap: 20 }}>
              <div className={ui.field}>
                <span className={ui.label} id={id('amount-label')}>{t.amount}</span>
                <div className={s.amountBox}>
                  <output className={s.amount} id={id('point')} tabIndex={-1} aria-labelledby={id('amount-label')} data-testid="topup-amount">
                    {plainWon(form.point)}
                  </output>
                  <button type="button" className={`${ui.button.ghost} ${ui.small}`} onClick={() => update(resetAmount(form))}>{t.reset}</button>
                </div>
                <div className={s.quick}>
                  {quickAdds.map((n) => (
                    <button key={n} type="button" className={ui.button.soft} onClick={() => update(addAmount(form, n))} aria-label={t.addLabel(plainWon(n))}>
                      {t.add(grouped(n))}
                    </button>
                  ))}
                </div>
                {fieldError('point')}
              </div>
              <div className={ui.field}>
                <label htmlFor={id('name')} className={ui.label}>{t.depositor}</label>
                <input id={id('name')} className={ui.input} placeholder={t.depositorPlaceholder} value={form.name} onChange={(e) => update({ ...form, name: e.target.value })} aria-invalid={invalid('name')} autoComplete="name" />
                {fieldError('name')}
              </div>
              {receiptOn && (
                <fieldset className={ui.field} style={{ border: 0, padding: 0, margin: 0 }} data-keep-clear>
                  <legend className={ui.label} style={{ marginBottom: 6 }}>{t.receiptType}</legend>
                  <div className={s.radios}>
                    {receiptTypes.map((type) => (
                      <label key={type} className={s.radio}>
                        <input type="radio" name="receiptType" value={type} checked={form.feeType === type} onChange={() => update(changeReceiptType(form, type))} />
                        {receiptTypeLabels[type]}
                      </label>
                    ))}
                  </div>
                  {form.feeType === 'fee' && (
                    <div className={s.receipt} style={{ marginTop: 10 }}>
                      {feeInput('company', t.company)}
                      {feeInput('businessNumber', t.businessNumber, { placeholder: t.businessNumberPlaceholder, inputMode: 'numeric' })}
                      {feeInput('leader', t.leader)}
                      {feeInput('phone', t.receiptPhone, { placeholder: t.receiptPhonePlaceholder, inputMode: 'numeric' })}
                      <div style={{ gridColumn: '1 / -1' }}>{feeInput('email', t.receiptEmail, { type: 'email', inputMode: 'email' })}</div>
                    </div>
                  )}
                  {form.feeType === 'cash' && (
                    <div className={s.receipt} style={{ marginTop: 10 }}>
                      {feeInput('phone', t.cashPhone, { placeholder: t.receiptPhonePlaceholder, inputMode: 'numeric' })}
                    </div>
                  )}
                </fieldset>
              )}
              {feeApplies(form.feeType, feeEnabled) && <p className={s.fee} role="note">{t.feeNotice(plainWon(transfer))}</p>}
              <fieldset className={ui.field} style={{ border: 0, padding: 0, margin: 0 }}>
                <legend className={ui.label} style={{ marginBottom: 6 }}>{t.method}</legend>
                <label className={s.radio} style={{ alignSelf: 'flex-start' }}>
                  <input type="radio" name="method" checked readOnly /> {t.bankTransfer}
                </label>
              </fieldset>
              <div className={s.amountBox} style={{ background: 'transparent' }} data-keep-clear>
                <span className={ui.label}>{t.transfer}</span>
                <span className={s.amount} style={{ fontSize: 24 }} data-testid="topup-transfer">{plainWon(transfer)}</span>
              </div>
              <button type="submit" className={`${ui.button.primary} ${ui.block}`} disabled={submitting.busy} style={{ minHeight: 52, fontSize: 16 }}>
                {submitting.busy ? t.paying : t.pay}
              </button>
            </div>
          </form>
        )}
        <aside className={ui.card} aria-labelledby="point-info-title">
          <h2 id="point-info-title" className={ui.cardTitle}>충전 안내</h2>
          <ul className={s.infoList}>
            {t.info.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <div className={ui.callout} style={{ marginTop: 16 }}>
            <strong>{settings.get(keys.bankingName)}</strong> {settings.get(keys.bankingAccountNumber)}
            <br />
            예금주 {settings.get(keys.bankingDisplayText)}
          </div>
        </aside>
      </div>
      <TopUpHistory />
    </div>
  );
}
