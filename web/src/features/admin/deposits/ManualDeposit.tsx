import { type FormEvent, useId, useState } from 'react';
import { post } from '../../../lib/api.ts';
import { useToast } from '../../../ui/toast.tsx';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { FormOutcome, useInlineForm } from '../inline-form.tsx';
import { adminText as t } from '../messages.ts';
import type { AdminDeposit } from './types.ts';

/** An operator enters a deposit seen in the bank account; it is matched like a notified one. */
export function ManualDeposit({ onDone }: { onDone(): void }) {
  const toast = useToast();
  const nameField = useId();
  const amountField = useId();
  const [name, setName] = useState('');
  const [amount, setAmount] = useState('');
  const { error, setError, busy, submit: run } = useInlineForm();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const won = Number(amount.replace(/,/g, ''));
    if (name.trim() === '') return setError(t.manualDepositorRequired);
    if (!/^\d+$/.test(amount.replace(/,/g, '')) || !Number.isSafeInteger(won) || won < 1) return setError(t.manualAmountInvalid);
    await run(async () => {
      const deposit = await post<AdminDeposit>('/admin/deposits', { depositorName: name.trim(), amount: won });
      toast.success(deposit.status === 'matched' ? t.manualMatched : t.manualOpen);
      setName('');
      setAmount('');
      onDone();
    });
  }

  return (
    <section className={ui.card} aria-labelledby="manual-deposit-title">
      <h2 id="manual-deposit-title" className={ui.cardTitle}>
        {t.manualTitle}
      </h2>
      <form className={s.filterRow} aria-label={t.manualTitle} onSubmit={(e) => void submit(e)} noValidate>
        <label htmlFor={nameField} className="sr-only">
          {t.manualDepositor}
        </label>
        <input id={nameField} className={`${ui.input} ${s.searchInput}`} placeholder={t.manualDepositor} value={name} maxLength={50} onChange={(e) => setName(e.target.value)} />
        <label htmlFor={amountField} className="sr-only">
          {t.manualAmount}
        </label>
        <input
          id={amountField}
          className={`${ui.input} ${s.searchInput}`}
          placeholder={t.manualAmount}
          inputMode="numeric"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
        <button type="submit" className={`${ui.button.primary} ${ui.small}`} disabled={busy}>
          {t.manualSubmit}
        </button>
      </form>
      <FormOutcome error={error} hint={t.manualHint} />
    </section>
  );
}
