import { useId, useState } from 'react';
import { won } from '../../../lib/format.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import * as ui from '../../../ui/ui.css.ts';
import { adminText as t } from '../messages.ts';
import type { AdminDeposit } from './types.ts';

export type AttachTarget = { topUpId: number } | { loginId: string };

/** Attach an open deposit to a request (its candidates offered first) or to a member by login id. */
export function AttachDialog({ deposit, busy, error, onClose, onConfirm }: { deposit: AdminDeposit; busy: boolean; error: string | null; onClose(): void; onConfirm(target: AttachTarget): void }) {
  const [mode, setMode] = useState<'request' | 'member'>('request');
  const [value, setValue] = useState(deposit.candidates[0] ? String(deposit.candidates[0]) : '');
  const [problem, setProblem] = useState<string | null>(null);
  const field = useId();
  const shown = problem ?? error;
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t.attachTitle}
      description={t.attachBody(deposit.depositorName, won(deposit.amountDeci))}
      confirmLabel={t.attachConfirm}
      busy={busy}
      onConfirm={() => {
        const text = value.trim();
        if (mode === 'request' ? !/^[1-9]\d{0,14}$/.test(text) : text === '') return setProblem(t.attachTargetRequired);
        setProblem(null);
        onConfirm(mode === 'request' ? { topUpId: Number(text) } : { loginId: text });
      }}
    >
      <div className={ui.chips} role="radiogroup" aria-label={t.attachTitle}>
        {(['request', 'member'] as const).map((m) => (
          <label key={m} className={ui.checkbox}>
            <input
              type="radio"
              name="attach-mode"
              className={ui.checkboxInput}
              checked={mode === m}
              onChange={() => {
                setMode(m);
                setValue('');
                setProblem(null);
              }}
            />
            {m === 'request' ? t.attachToRequest : t.attachToMember}
          </label>
        ))}
      </div>
      {mode === 'request' && deposit.candidates.length > 0 && <p className={ui.hint}>{t.candidates(deposit.candidates.map((c) => `#${c}`).join(', '))}</p>}
      <div className={ui.field}>
        <label htmlFor={field} className={ui.label}>
          {mode === 'request' ? t.attachToRequest : t.attachToMember}
        </label>
        <input
          id={field}
          className={ui.input}
          value={value}
          inputMode={mode === 'request' ? 'numeric' : 'text'}
          aria-invalid={shown !== null}
          onChange={(e) => {
            setValue(e.target.value);
            setProblem(null);
          }}
        />
        {shown && (
          <p className={ui.errorText} role="alert">
            {shown}
          </p>
        )}
      </div>
    </ConfirmDialog>
  );
}
