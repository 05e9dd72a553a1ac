import type { ReactNode } from 'react';
import { count } from '../../lib/format.ts';
import * as ui from '../../ui/ui.css.ts';
import { orderText as t } from './messages.ts';
import * as s from './order.css.ts';
import { totalQuantity } from './order-form.ts';
import type { OrderField, OrderForm } from './order-form.ts';

type Props = {
  form: OrderForm;
  ids: { runs: string; interval: string; total: string };
  disabled: boolean;
  onChange: (next: OrderForm) => void;
  /** Registers a field's input, focused when a submit finds it wrong. */
  fieldRef: (field: OrderField, el: HTMLElement | null) => void;
  invalid: (field: OrderField) => true | undefined;
  errorFor: (field: OrderField) => ReactNode;
};

/** An auto order's runs and interval, and the total quantity they make (spec §4). */
export function AutoOrderFields({ form, ids, disabled, onChange, fieldRef, invalid, errorFor }: Props) {
  return (
    <div className={s.autoBox}>
      <div className={ui.field}>
        <label htmlFor={ids.runs} className={ui.label}>{t.runs}</label>
        <input
          id={ids.runs}
          ref={(el) => fieldRef('runs', el)}
          className={ui.input}
          type="number"
          inputMode="numeric"
          min={2}
          step={1}
          value={form.runs}
          onChange={(e) => onChange({ ...form, runs: e.target.value })}
          disabled={disabled}
          aria-invalid={invalid('runs')}
        />
        <span className={ui.hint}>{t.runsHint}</span>
      </div>
      <div className={ui.field}>
        <label htmlFor={ids.interval} className={ui.label}>{t.interval}</label>
        <input
          id={ids.interval}
          ref={(el) => fieldRef('interval', el)}
          className={ui.input}
          type="number"
          inputMode="numeric"
          min={60}
          step={1}
          value={form.interval}
          onChange={(e) => onChange({ ...form, interval: e.target.value })}
          disabled={disabled}
          aria-invalid={invalid('interval')}
        />
        <span className={ui.hint}>{t.intervalHint}</span>
      </div>
      <div className={ui.field}>
        <label htmlFor={ids.total} className={ui.label}>{t.totalQuantity}</label>
        <input id={ids.total} className={ui.input} type="text" readOnly value={count(totalQuantity(form))} />
      </div>
      <div style={{ gridColumn: '1 / -1' }}>
        {errorFor('runs')}
        {errorFor('interval')}
      </div>
    </div>
  );
}
