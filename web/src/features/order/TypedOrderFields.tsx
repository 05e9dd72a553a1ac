import type { ReactNode } from 'react';
import { subscriptionLimits } from '../../lib/contracts.ts';
import { count } from '../../lib/format.ts';
import * as ui from '../../ui/ui.css.ts';
import { orderText as t } from './messages.ts';
import { type CatalogService, type OrderField, type OrderForm, orderQuantity, typeOf } from './order-form.ts';

type Props = {
  form: OrderForm;
  service: CatalogService;
  ids: { comments: string; usernames: string; username: string; subMin: string; subMax: string; posts: string; delay: string; expiry: string };
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
    case 'subscriptions':
      return <SubscriptionFields form={form} service={service} ids={ids} disabled={disabled} onChange={onChange} fieldRef={fieldRef} invalid={invalid} errorFor={errorFor} />;
    default:
      return null;
  }
}

/**
 * A subscription's fields (자동 좋아요 / 신규 게시물 자동 작업): the profile, min and max per post,
 * how many posts, the delay after a post and an optional expiry day. The price is for the max.
 */
function SubscriptionFields({ form, service, ids, disabled, onChange, fieldRef, invalid, errorFor }: Props) {
  const text = (field: 'username' | 'subMin' | 'subMax' | 'posts', label: string, hint: string | null, numeric: boolean) => (
    <div className={ui.field}>
      <label htmlFor={ids[field]} className={ui.label}>{label}</label>
      <input
        id={ids[field]}
        ref={(el) => fieldRef(field, el)}
        className={ui.input}
        type={numeric ? 'number' : 'text'}
        inputMode={numeric ? 'numeric' : undefined}
        step={numeric ? 1 : undefined}
        autoComplete="off"
        placeholder={numeric ? undefined : '@username'}
        value={form[field] ?? ''}
        onChange={(e) => onChange({ ...form, [field]: e.target.value })}
        disabled={disabled}
        aria-invalid={invalid(field)}
        aria-describedby={hint ? `${field}-hint` : undefined}
      />
      {hint && <p className={ui.hint} id={`${field}-hint`}>{hint}</p>}
      {errorFor(field)}
    </div>
  );
  return (
    <div className={ui.stack} style={{ gap: 12 }} data-testid="subscription-fields">
      {text('username', t.subUsernameLabel, t.subUsernameHint, false)}
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))', gap: 12 }}>
        {text('subMin', t.subMinLabel, null, true)}
        {text('subMax', t.subMaxLabel, null, true)}
      </div>
      <p className={ui.hint}>{t.subRangeHint(count(service.min), count(service.max))}</p>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))', gap: 12 }}>
        {text('posts', t.postsLabel, t.postsHint(count(subscriptionLimits.maxPosts)), true)}
        <div className={ui.field}>
          <label htmlFor={ids.delay} className={ui.label}>{t.delayLabel}</label>
          <select id={ids.delay} className={ui.input} value={form.delay ?? '0'} onChange={(e) => onChange({ ...form, delay: e.target.value })} disabled={disabled}>
            {subscriptionLimits.delays.map((m) => (
              <option key={m} value={String(m)}>{t.delayOption(m)}</option>
            ))}
          </select>
        </div>
      </div>
      <div className={ui.field}>
        <label htmlFor={ids.expiry} className={ui.label}>{t.expiryLabel}</label>
        <input
          id={ids.expiry}
          ref={(el) => fieldRef('expiry', el)}
          className={ui.input}
          type="date"
          value={form.expiry ?? ''}
          onChange={(e) => onChange({ ...form, expiry: e.target.value })}
          disabled={disabled}
          aria-invalid={invalid('expiry')}
          aria-describedby="expiry-hint"
        />
        <p className={ui.hint} id="expiry-hint">{t.expiryHint}</p>
        {errorFor('expiry')}
      </div>
    </div>
  );
}
