import type { ReactNode } from 'react';
import { count } from '../../lib/format.ts';
import * as ui from '../../ui/ui.css.ts';
import { orderText as t } from './messages.ts';
import { type CatalogService, type OrderField, type OrderForm, orderQuantity, typeOf } from './order-form.ts';

type Props = {
  form: OrderForm;
  service: CatalogService;
  ids: { comments: string; usernames: string; username: string };
  disabled: boolean;
  onChange: (next: OrderForm) => void;
  fieldRef: (field: OrderField, el: HTMLElement | null) => void;
  invalid: (field: OrderField) => true | undefined;
  errorFor: (field: OrderField) => ReactNode;
};

/**
 * A typed product's own fields (issue 40): comments or usernames one per line (their count is the
 * quantity), a comment author's username, or a package's fixed quantity. Default products have none.
 */
export function TypedOrderFields({ form, service, ids, disabled, onChange, fieldRef, invalid, errorFor }: Props) {
  const type = typeOf(service);
  const counted = (field: 'comments' | 'usernames', label: string, placeholder: string) => (
    <div className={ui.field}>
      <label htmlFor={ids[field]} className={ui.label}>{label}</label>
      <textarea
        id={ids[field]}
        ref={(el) => fieldRef(field, el)}
        className={ui.textarea}
        rows={5}
        placeholder={placeholder}
        value={form[field]}
        onChange={(e) => onChange({ ...form, [field]: e.target.value })}
        disabled={disabled}
        aria-invalid={invalid(field)}
        aria-describedby={`${field}-hint`}
      />
      <p className={ui.hint} id={`${field}-hint`} data-testid={`${field}-count`}>
        {t.countHint(count(orderQuantity(form, service)), count(service.min), count(service.max))}
      </p>
      {errorFor(field)}
    </div>
  );
  switch (type) {
    case 'custom-comments':
      return counted('comments', t.commentsLabel, t.commentsPlaceholder);
    case 'mentions-custom-list':
      return counted('usernames', t.usernamesLabel, t.usernamesPlaceholder);
    case 'package':
      return (
        <div className={ui.field}>
          <span className={ui.label}>{t.packageQuantity}</span>
          <p className={ui.hint} data-testid="package-quantity">{t.packageHint(count(service.min))}</p>
        </div>
      );
    case 'comment-likes':
      return (
        <div className={ui.field}>
          <label htmlFor={ids.username} className={ui.label}>{t.usernameLabel}</label>
          <input
            id={ids.username}
            ref={(el) => fieldRef('username', el)}
            className={ui.input}
            type="text"
            autoComplete="off"
            placeholder="@username"
            value={form.username}
            onChange={(e) => onChange({ ...form, username: e.target.value })}
            disabled={disabled}
            aria-invalid={invalid('username')}
            aria-describedby="username-hint"
          />
          <p className={ui.hint} id="username-hint">{t.usernameHint}</p>
          {errorFor('username')}
        </div>
      );
    default:
      return null;
  }
}
