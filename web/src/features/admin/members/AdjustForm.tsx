import { type FormEvent, useId, useState } from 'react';
import { post } from '../../../lib/api.ts';
import { parseWon } from '../../../lib/contracts.ts';
import { useToast } from '../../../ui/toast.tsx';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { FormOutcome, useInlineForm } from '../inline-form.tsx';
import { adminText as t } from '../messages.ts';

/** Admins only: a balance adjustment with a mandatory reason (its own ledger entry). */
export function AdjustForm({ userId, onDone }: { userId: string; onDone(): void }) {
  const toast = useToast();
  const amountField = useId();
  const reasonField = useId();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const { error, setError, busy, submit: run } = useInlineForm();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const text = amount.replace(/,/g, '').trim();
    const negative = text.startsWith('-');
    const deci = parseWon(negative ? text.slice(1) : text);
    if (deci === undefined || deci === 0) return setError(t.adjustAmountInvalid);
    if (reason.trim() === '') return setError(t.adjustReasonRequired);
    await run(async () => {
      await post(`/admin/members/${userId}/adjustments`, { amount: (negative ? -deci : deci) / 10, reason: reason.trim() });
      toast.success(t.adjusted);
      setAmount('');
      setReason('');
      onDone();
    });
  }

  return (
    <section className={ui.card} aria-labelledby="adjust-title">
      <h2 id="adjust-title" className={ui.cardTitle}>
        {t.adjustTitle}
      </h2>
      <form className={s.filterRow} aria-label={t.adjustTitle} onSubmit={(e) => void submit(e)} noValidate>
        <label htmlFor={amountField} className="sr-only">
          {t.adjustAmount}
        </label>
        <input id={amountField} className={`${ui.input} ${s.searchInput}`} placeholder={t.adjustAmount} value={amount} inputMode="decimal" onChange={(e) => setAmount(e.target.value)} />
        <label htmlFor={reasonField} className="sr-only">
          {t.adjustReason}
        </label>
        <input id={reasonField} className={`${ui.input} ${s.searchInput}`} style={{ width: 320 }} placeholder={t.adjustReason} value={reason} maxLength={200} onChange={(e) => setReason(e.target.value)} />
        <button type="submit" className={`${ui.button.primary} ${ui.small}`} disabled={busy}>
          {t.adjustSubmit}
        </button>
      </form>
      <FormOutcome error={error} hint={t.adjustHint} />
    </section>
  );
}
