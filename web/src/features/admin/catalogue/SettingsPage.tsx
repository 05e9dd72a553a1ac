import type { CatalogRequest, SettingsChangeBody } from '@smm/contracts/http';
import { type FormEvent, useId, useState } from 'react';
import useSWR from 'swr';
import { api, messageOf } from '../../../lib/api.ts';
import { type SettingKey, settingEnabled } from '../../../lib/contracts.ts';
import { useToast } from '../../../ui/toast.tsx';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import * as f from '../fields.css.ts';
import { ColourField, Switch } from '../fields.tsx';
import { catalogueText as t } from './messages.ts';
import { type SettingField, settingFields, settingGroups } from './setting-fields.ts';
import type { SettingsAnswer } from './types.ts';

type Draft = Record<string, string | boolean>;

const draftOf = (answer: SettingsAnswer, keys: readonly SettingKey[]): Draft => {
  const stored = new Map(answer.items.map((i) => [i.key, i.value]));
  return Object.fromEntries(keys.map((key) => [key, settingFields[key].kind === 'flag' ? settingEnabled(stored.get(key)) : (stored.get(key) ?? '')]));
};

/** Issue 12 (admin only): every site setting, grouped; each group saves all-or-nothing. */
export default function SettingsPage() {
  const settings = useSWR<SettingsAnswer>('/admin/settings');
  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.settings}</h1>
        <p className={ui.pageLead}>{t.settingsLead}</p>
      </header>
      {settings.error && !settings.data && (
        <p className={ui.errorText} role="alert">
          {messageOf(settings.error, t.settingsLoadFailed)}
        </p>
      )}
      {settings.data &&
        settingGroups.map((group) => <SettingGroup key={`${group.title}-${settings.data!.version}`} title={group.title} keys={group.keys} answer={settings.data!} onSaved={() => settings.mutate()} />)}
    </>
  );
}

function SettingGroup({ title, keys, answer, onSaved }: { title: string; keys: readonly SettingKey[]; answer: SettingsAnswer; onSaved(): Promise<unknown> }) {
  const toast = useToast();
  const headingId = useId();
  const [before] = useState(() => draftOf(answer, keys));
  const [draft, setDraft] = useState(before);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const changed = keys.filter((key) => draft[key] !== before[key]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (changed.length === 0) return setError(t.settingsUnchanged);
    setBusy(true);
    setError(null);
    try {
      const values = Object.fromEntries(changed.map((key) => [key, draft[key]]));
      const result = await api<SettingsChangeBody>('/admin/settings', { method: 'PUT', body: { values } satisfies CatalogRequest<'settings'> });
      toast.success(t.settingsSaved(result.changed.length));
      await onSaved();
    } catch (caught) {
      setError(messageOf(caught, t.common.failed));
    } finally {
      setBusy(false);
    }
  }

  const set = (key: SettingKey, value: string | boolean) => setDraft((d) => ({ ...d, [key]: value }));
  return (
    <section className={ui.card} aria-labelledby={headingId}>
      <h2 id={headingId} className={ui.cardTitle}>
        {title}
      </h2>
      <form className={f.settingsGrid} aria-label={title} onSubmit={(e) => void submit(e)} noValidate>
        {keys.map((key) => (
          <SettingInput key={key} name={key} field={settingFields[key]} value={draft[key]!} onChange={(v) => set(key, v)} />
        ))}
        <div className={s.formActions}>
          <button type="submit" className={ui.button.primary} disabled={busy}>
            {t.settingsSave}
          </button>
          <button type="button" className={ui.button.secondary} disabled={busy || changed.length === 0} onClick={() => setDraft(before)}>
            {t.settingsReset}
          </button>
        </div>
      </form>
      {error && (
        <p className={`${ui.errorText} ${s.formHint}`} role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function SettingInput({ name, field, value, onChange }: { name: SettingKey; field: SettingField; value: string | boolean; onChange(v: string | boolean): void }) {
  const id = useId();
  if (field.kind === 'flag') return <Switch label={field.label} checked={value === true} onChange={onChange} />;
  const text = typeof value === 'string' ? value : '';
  if (field.kind === 'colour') return <ColourField label={field.label} value={text} onChange={onChange} previewText={t.common.colourPreview} pickLabel={`${field.label} ${t.common.pick}`} />;
  return (
    <div className={ui.field}>
      <label htmlFor={id} className={ui.label}>
        {field.label}
      </label>
      <input
        id={id}
        name={name}
        className={ui.input}
        value={text}
        type={field.kind === 'percent' || field.kind === 'count' ? 'number' : field.kind === 'url' ? 'url' : 'text'}
        min={field.kind === 'percent' ? 0 : undefined}
        max={field.kind === 'percent' ? 50 : undefined}
        step={field.kind === 'percent' || field.kind === 'count' ? 1 : undefined}
        inputMode={field.kind === 'bankCode' || field.kind === 'count' ? 'numeric' : undefined}
        maxLength={field.kind === 'bankCode' ? 3 : 2000}
        onChange={(e) => onChange(e.target.value)}
      />
      {field.hint && <span className={ui.hint}>{field.hint}</span>}
    </div>
  );
}
