import { useId } from 'react';
import * as ui from '../../ui/ui.css.ts';
import * as s from './fields.css.ts';

const hex = /^#[0-9a-fA-F]{6}$/;

/** An on/off setting shown as a switch (role="switch", so it reads as one and toggles with Space). */
export function Switch({ label, checked, onChange, disabled = false }: { label: string; checked: boolean; onChange(next: boolean): void; disabled?: boolean }) {
  const id = useId();
  return (
    <span className={s.switchRow}>
      <button id={id} type="button" role="switch" aria-checked={checked} className={s.track} disabled={disabled} onClick={() => onChange(!checked)}>
        <span className={s.thumb} />
      </button>
      <label htmlFor={id}>{label}</label>
    </span>
  );
}

/**
 * A colour typed as #RRGGBB or picked, with a preview of white text on it. The text stays what the
 * operator typed, so the server's message explains a malformed one.
 */
export function ColourField({ label, value, onChange, previewText, pickLabel }: { label: string; value: string; onChange(next: string): void; previewText: string; pickLabel: string }) {
  const id = useId();
  const valid = hex.test(value.trim());
  return (
    <div className={ui.field}>
      <label htmlFor={id} className={ui.label}>
        {label}
      </label>
      <span className={s.colourRow}>
        <input id={id} className={ui.input} value={value} maxLength={7} placeholder="#RRGGBB" onChange={(e) => onChange(e.target.value)} />
        <input type="color" aria-label={pickLabel} className={s.colourPicker} value={valid ? value.trim().toLowerCase() : '#000000'} onChange={(e) => onChange(e.target.value.toUpperCase())} />
        <span className={s.preview} data-testid="colour-preview" style={{ background: valid ? value.trim() : 'transparent' }} aria-hidden="true">
          {valid ? previewText : '—'}
        </span>
      </span>
    </div>
  );
}

/** Up/down buttons for a row of a list whose order the server keeps. */
export function MoveButtons({ name, index, count, disabled, onMove, upLabel, downLabel }: { name: string; index: number; count: number; disabled: boolean; onMove(delta: -1 | 1): void; upLabel: string; downLabel: string }) {
  return (
    <span className={s.moveButtons}>
      <button type="button" className={`${ui.button.ghost} ${ui.small} ${s.moveButton}`} aria-label={`${name} ${upLabel}`} disabled={disabled || index === 0} onClick={() => onMove(-1)}>
        ↑
      </button>
      <button type="button" className={`${ui.button.ghost} ${ui.small} ${s.moveButton}`} aria-label={`${name} ${downLabel}`} disabled={disabled || index === count - 1} onClick={() => onMove(1)}>
        ↓
      </button>
    </span>
  );
}

/** The ids in their new order after moving the item at `index` by one place. */
export function moved<T>(ids: readonly T[], index: number, delta: -1 | 1): T[] {
  const next = [...ids];
  const target = index + delta;
  if (target < 0 || target >= next.length) return next;
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}
