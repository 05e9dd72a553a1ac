import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { messageOf } from '../../../lib/api.ts';
import { parseWon } from '../../../lib/contracts.ts';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { adminText as t } from '../messages.ts';
import type { Provider, ProviderInput } from './types.ts';

const deciText = (deci: number) => `${Math.trunc(deci / 10)}${deci % 10 === 0 ? '' : `.${deci % 10}`}`;

/**
 * Adds a provider or edits one. Checked here for a clear message before the call; the service
 * validates again (its Korean messages are shown as they come). On edit an empty key keeps the
 * stored one, since the console never sees the full key.
 */
export function ProviderForm({ editing, onSave, onCancel }: { editing: Provider | null; onSave(input: ProviderInput): Promise<void>; onCancel(): void }) {
  const ids = { name: useId(), url: useId(), key: useId(), currency: useId(), rate: useId(), threshold: useId() };
  const [name, setName] = useState(editing?.name ?? '');
  const [url, setUrl] = useState(editing?.url ?? '');
  const [key, setKey] = useState('');
  const [currency, setCurrency] = useState(editing?.currency ?? 'KRW');
  const [rate, setRate] = useState(editing ? deciText(editing.wonDeciPerUnit) : '1');
  const [threshold, setThreshold] = useState(editing?.lowBalanceThreshold ?? '0');
  const [idempotent, setIdempotent] = useState(editing?.idempotentAdd ?? false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function validate(): ProviderInput | string {
    if (name.trim() === '') return t.providerNameRequired;
    if (!/^https?:\/\/\S+$/i.test(url.trim())) return t.providerUrlInvalid;
    if (editing === null && key.trim() === '') return t.providerKeyRequired;
    if (!/^[A-Z]{3}$/.test(currency.trim())) return t.providerCurrencyInvalid;
    const rateDeci = parseWon(rate.replace(/,/g, ''));
    if (rateDeci === undefined || rateDeci <= 0) return t.providerRateInvalid;
    if (!/^\d{1,15}(\.\d{1,8})?$/.test(threshold.trim())) return t.providerThresholdInvalid;
    const input: ProviderInput = { name: name.trim(), url: url.trim(), currency: currency.trim(), wonDeciPerUnit: rateDeci, lowBalanceThreshold: threshold.trim(), idempotentAdd: idempotent };
    if (key.trim() !== '') input.key = key.trim();
    return input;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const input = validate();
    if (typeof input === 'string') return setError(input);
    setError(null);
    setBusy(true);
    try {
      await onSave(input);
      if (editing === null) {
        setName('');
        setUrl('');
        setKey('');
        setIdempotent(false);
      }
    } catch (caught) {
      setError(messageOf(caught, t.actionFailed));
    } finally {
      setBusy(false);
    }
  }

  const title = editing ? t.providerEdit(editing.name) : t.providerAdd;
  const field = (id: string, label: string, input: ReactNode) => (
    <div className={ui.field}>
      <label htmlFor={id} className={ui.label}>
        {label}
      </label>
      {input}
    </div>
  );
  return (
    <section className={ui.card} aria-labelledby="provider-form-title">
      <h2 id="provider-form-title" className={ui.cardTitle}>
        {title}
      </h2>
      <form className={s.formGrid} aria-label={title} onSubmit={(e) => void submit(e)} noValidate>
        {field(ids.name, t.providerFields.name, <input id={ids.name} className={ui.input} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />)}
        {field(ids.url, t.providerFields.url, <input id={ids.url} className={ui.input} value={url} placeholder="https://example.com/api/v2" onChange={(e) => setUrl(e.target.value)} />)}
        {field(
          ids.key,
          t.providerFields.key,
          <input
            id={ids.key}
            className={ui.input}
            type="password"
            autoComplete="off"
            value={key}
            placeholder={editing ? `${editing.key} · ${t.providerKeyKeep}` : ''}
            maxLength={500}
            onChange={(e) => setKey(e.target.value)}
          />,
        )}
        {field(ids.currency, t.providerFields.currency, <input id={ids.currency} className={ui.input} value={currency} maxLength={3} onChange={(e) => setCurrency(e.target.value.toUpperCase())} />)}
        {field(ids.rate, t.providerFields.rate, <input id={ids.rate} className={ui.input} inputMode="decimal" value={rate} onChange={(e) => setRate(e.target.value)} />)}
        {field(ids.threshold, t.providerFields.threshold, <input id={ids.threshold} className={ui.input} inputMode="decimal" value={threshold} onChange={(e) => setThreshold(e.target.value)} />)}
        <label className={`${ui.checkbox} ${s.formWide}`} title={t.providerIdempotentHint}>
          <input type="checkbox" className={ui.checkboxInput} checked={idempotent} onChange={(e) => setIdempotent(e.target.checked)} />
          {t.providerFields.idempotent}
        </label>
        <div className={s.formActions}>
          <button type="submit" className={ui.button.primary} disabled={busy}>
            {t.providerSave}
          </button>
          {editing && (
            <button type="button" className={ui.button.secondary} onClick={onCancel}>
              {t.providerCancelEdit}
            </button>
          )}
        </div>
      </form>
      {error ? (
        <p className={`${ui.errorText} ${s.formHint}`} role="alert">
          {error}
        </p>
      ) : (
        <p className={`${ui.hint} ${s.formHint}`}>{t.providerRateHint}</p>
      )}
    </section>
  );
}
