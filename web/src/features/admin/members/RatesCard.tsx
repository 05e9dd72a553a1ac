import type { MemberRateListBody } from '@smm/contracts/http';
import { type FormEvent, useId, useMemo, useState } from 'react';
import useSWR from 'swr';
import { api, messageOf } from '../../../lib/api.ts';
import { useCatalog } from '../../../lib/catalog.ts';
import { type MemberRole, memberRateLimits, parseWon, ratedUnitPriceDeci } from '../../../lib/contracts.ts';
import { dateTime, won } from '../../../lib/format.ts';
import { useToast } from '../../../ui/toast.tsx';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { FormOutcome, useInlineForm } from '../inline-form.tsx';
import { rateText as t } from './rate-messages.ts';

type Rate = MemberRateListBody['items'][number];
type Kind = 'discount' | 'price';

/**
 * Issue 40: a member's rates on their console page — a discount in percent on every product, or
 * per product a discount or a unit price of their own. Operators see them with what each does to
 * a catalogue price; admins set and remove them (the BFF and the order service refuse staff, and
 * an admin's own account: SELF_ACTION). The catalogue price shown is the public one.
 */
export function RatesCard({ userId, role }: { userId: string; role: MemberRole }) {
  const rates = useSWR<MemberRateListBody>(`/admin/members/${encodeURIComponent(userId)}/rates`);
  const catalog = useCatalog();
  const toast = useToast();
  /** Catalogue unit prices by product (the operator's own list may carry their rates: the list price is the catalogue's). */
  const products = useMemo(
    () => catalog.services.map((x) => ({ id: x.id, text: x.text, baseDeci: typeof x.listUnitPriceDeci === 'number' ? x.listUnitPriceDeci : x.unitPriceDeci })),
    [catalog.services],
  );
  const byId = useMemo(() => new Map(products.map((p) => [p.id, p])), [products]);
  const admin = role === 'admin';
  const { error, setError, busy, submit: run } = useInlineForm();

  async function remove(rate: Rate) {
    await run(async () => {
      await api(`/admin/members/${encodeURIComponent(userId)}/rates/${rate.serviceId ?? 'all'}`, { method: 'DELETE' });
      toast.success(t.removed);
      await rates.mutate();
    });
  }

  const items = rates.data?.items ?? [];
  const scopeName = (r: Rate) => (r.serviceId === null ? t.allProducts : r.serviceText ? t.product(r.serviceText, r.serviceId) : t.removedProduct(r.serviceId));
  const example = (r: Rate) => {
    const product = r.serviceId === null ? products[0] : byId.get(r.serviceId);
    if (!product) return '—';
    const to = ratedUnitPriceDeci(product.baseDeci, { serviceId: r.serviceId, discountPercent: r.discountPercent, unitPriceDeci: r.unitPriceDeci });
    return `${r.serviceId === null ? `${product.text}: ` : ''}${t.preview(won(product.baseDeci), won(to))}`;
  };

  return (
    <section className={ui.card} aria-labelledby="rates-title" data-testid="member-rates">
      <h2 id="rates-title" className={ui.cardTitle}>
        {t.title}
      </h2>
      {rates.error && !rates.data ? (
        <p className={ui.errorText} role="alert">
          {messageOf(rates.error, t.loadFailed)}
        </p>
      ) : (
        <div className={ui.tableWrap}>
          <table className={`${ui.table} ${s.table}`} aria-label={t.title}>
            <thead>
              <tr>
                <th className={ui.th}>{t.columns.scope}</th>
                <th className={ui.th}>{t.columns.kind}</th>
                <th className={`${ui.th} ${ui.num}`}>{t.columns.value}</th>
                <th className={ui.th}>{t.columns.example}</th>
                <th className={ui.th}>{t.columns.updatedAt}</th>
                {admin && <th className={ui.th}>{t.columns.actions}</th>}
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr key={r.serviceId ?? 'all'}>
                  <td className={ui.tdWrap}>{scopeName(r)}</td>
                  <td className={ui.td}>{r.discountPercent !== null ? t.discount : t.price}</td>
                  <td className={`${ui.td} ${ui.num}`}>{r.discountPercent !== null ? t.percent(r.discountPercent) : `${t.each} ${won(r.unitPriceDeci ?? 0)}`}</td>
                  <td className={ui.tdWrap}>{example(r)}</td>
                  <td className={ui.td}>{dateTime(r.updatedAt)}</td>
                  {admin && (
                    <td className={ui.td}>
                      <button type="button" className={`${ui.button.danger} ${ui.small}`} disabled={busy} aria-label={`${scopeName(r)} ${t.remove}`} onClick={() => void remove(r)}>
                        {t.remove}
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          {rates.data && items.length === 0 && <p className={ui.empty}>{t.empty}</p>}
        </div>
      )}
      {admin ? (
        <RateForm userId={userId} products={products} busy={busy} run={run} setError={setError} onDone={() => void rates.mutate()} />
      ) : (
        <p className={`${ui.hint} ${s.formHint}`}>{t.adminOnly}</p>
      )}
      {admin && <FormOutcome error={error} hint={t.hint} />}
    </section>
  );
}

type FormProps = {
  userId: string;
  products: Array<{ id: number; text: string; baseDeci: number }>;
  busy: boolean;
  run(work: () => Promise<void>): Promise<void> | void;
  setError(message: string | null): void;
  onDone(): void;
};

/** Admins: one rate set (or replaced) for every product or one product. */
function RateForm({ userId, products, busy, run, setError, onDone }: FormProps) {
  const toast = useToast();
  const scopeField = useId();
  const kindField = useId();
  const valueField = useId();
  const [scope, setScope] = useState('all');
  const [kind, setKind] = useState<Kind>('discount');
  const [value, setValue] = useState('');
  const product = scope === 'all' ? undefined : products.find((p) => String(p.id) === scope);

  /** What the rate being typed would make of the chosen product's price, when it reads as a valid rate. */
  const preview = (() => {
    if (!product) return null;
    const text = value.trim();
    if (kind === 'discount') {
      const percent = Number(text);
      if (!/^\d{1,2}$/.test(text) || percent < memberRateLimits.minPercent) return null;
      return t.preview(won(product.baseDeci), won(ratedUnitPriceDeci(product.baseDeci, { serviceId: product.id, discountPercent: percent, unitPriceDeci: null })));
    }
    const deci = parseWon(text);
    if (deci === undefined || deci < 1) return null;
    return t.preview(won(product.baseDeci), won(ratedUnitPriceDeci(product.baseDeci, { serviceId: product.id, discountPercent: null, unitPriceDeci: deci })));
  })();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const text = value.trim();
    if (kind === 'discount' && !/^\d{1,2}$/.test(text)) return setError(t.percentInvalid);
    if (kind === 'price' && scope === 'all') return setError(t.priceNeedsProduct);
    if (kind === 'price' && (parseWon(text) ?? 0) < 1) return setError(t.priceInvalid);
    const body = { serviceId: scope === 'all' ? null : Number(scope), ...(kind === 'discount' ? { discountPercent: Number(text) } : { unitPrice: text }) };
    await run(async () => {
      await api(`/admin/members/${encodeURIComponent(userId)}/rates`, { method: 'PUT', body });
      toast.success(t.saved);
      setValue('');
      onDone();
    });
  }

  return (
    <form className={s.filterRow} style={{ marginTop: 14 }} aria-label={t.title} onSubmit={(e) => void submit(e)} noValidate>
      <label htmlFor={scopeField} className="sr-only">
        {t.scopeLabel}
      </label>
      <select id={scopeField} className={`${ui.input} ${s.searchInput}`} style={{ width: 260 }} value={scope} onChange={(e) => setScope(e.target.value)}>
        <option value="all">{t.allProducts}</option>
        {products.map((p) => (
          <option key={p.id} value={String(p.id)}>
            {t.product(p.text, p.id)} · {won(p.baseDeci)}
          </option>
        ))}
      </select>
      <label htmlFor={kindField} className="sr-only">
        {t.kindLabel}
      </label>
      <select id={kindField} className={`${ui.input} ${s.searchInput}`} style={{ width: 140 }} value={kind} onChange={(e) => setKind(e.target.value === 'price' ? 'price' : 'discount')}>
        <option value="discount">{t.discount}</option>
        <option value="price">{t.price}</option>
      </select>
      <label htmlFor={valueField} className="sr-only">
        {t.valueLabel(kind)}
      </label>
      <input id={valueField} className={`${ui.input} ${s.searchInput}`} style={{ width: 140 }} placeholder={`${t.valueLabel(kind)} ${t.valuePlaceholder(kind)}`} value={value} inputMode="decimal" onChange={(e) => setValue(e.target.value)} />
      <button type="submit" className={`${ui.button.primary} ${ui.small}`} disabled={busy}>
        {t.submit}
      </button>
      {preview && (
        <span className={ui.hint} data-testid="rate-preview">
          {preview}
        </span>
      )}
    </form>
  );
}
