import type { FulfillmentRequest } from '@smm/contracts/http';
import { type FormEvent, useId, useState } from 'react';
import useSWR from 'swr';
import { api, messageOf } from '../../../lib/api.ts';
import { parseWon } from '../../../lib/contracts.ts';
import { count, won } from '../../../lib/format.ts';
import type { Service } from '../../../lib/types.ts';
import { useToast } from '../../../ui/toast.tsx';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { adminText as t } from '../messages.ts';
import type { Mapping, PriceRule, Provider, ProviderService } from './types.ts';

type Mode = 'provider' | 'manual';

/**
 * Maps one product of our catalogue to a provider's service with a price rule (or to manual
 * handling), and lists the mappings. Fulfillment sets the product's price, min and max from it.
 * With `product` (the catalogue screen) the card is about that one product, filled from `current`.
 */
export function MappingCard({ providers, importedAt, product, current, onSaved }: { providers: Provider[]; importedAt: number; product?: { id: number; text: string }; current?: Mapping | undefined; onSaved?(): void }) {
  const toast = useToast();
  const ids = { product: useId(), provider: useId(), service: useId(), amount: useId() };
  const products = useSWR<Service[]>('/service/services');
  const mappings = useSWR<Mapping[]>('/admin/fulfillment/mappings');
  const [productId, setProductId] = useState(product ? String(product.id) : '');
  const [mode, setMode] = useState<Mode>(current?.mode ?? 'provider');
  const [providerId, setProviderId] = useState(current?.providerId == null ? '' : String(current.providerId));
  const [serviceId, setServiceId] = useState(current?.providerServiceId ?? '');
  const [ruleKind, setRuleKind] = useState<PriceRule['kind']>(current?.rule?.kind ?? 'markup');
  const [ruleValue, setRuleValue] = useState(current?.rule ? (current.rule.kind === 'markup' ? String(current.rule.percent) : won(current.rule.unitPriceDeci).replace(/[원,]/g, '')) : '20');
  const [belowCost, setBelowCost] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The key carries the last import, so freshly imported services appear without a reload.
  const services = useSWR<ProviderService[]>(providerId === '' ? null : [`/admin/fulfillment/providers/${providerId}/services`, importedAt], ([path]: [string]) => api<ProviderService[]>(path));
  const listed = (services.data ?? []).filter((x) => x.listed);
  const productName = (id: number) => products.data?.find((p) => Number(p.id) === id)?.text ?? t.unknownProduct(id);
  const providerName = (id: number | null) => providers.find((p) => p.id === id)?.name ?? '—';

  function body(): FulfillmentRequest<'mapping'> | string {
    if (productId === '') return t.mappingProductRequired;
    if (mode === 'manual') return { mode: 'manual' };
    if (providerId === '' || serviceId === '') return t.mappingProviderRequired;
    let rule: PriceRule;
    if (ruleKind === 'markup') {
      if (!/^\d{1,4}$/.test(ruleValue.trim()) || Number(ruleValue) > 1000) return t.percentInvalid;
      rule = { kind: 'markup', percent: Number(ruleValue) };
    } else {
      const deci = parseWon(ruleValue.replace(/,/g, ''));
      if (deci === undefined || deci <= 0) return t.priceInvalid;
      rule = { kind: 'fixed', unitPriceDeci: deci };
    }
    return { mode: 'provider', providerId: Number(providerId), providerServiceId: serviceId, rule, allowBelowCost: belowCost };
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const payload = body();
    if (typeof payload === 'string') return setError(payload);
    setError(null);
    setBusy(true);
    try {
      await api(`/admin/fulfillment/mappings/${productId}`, { method: 'PUT', body: payload });
      toast.success(t.mappingSaved);
      await Promise.all([mappings.mutate(), products.mutate()]);
      onSaved?.();
    } catch (caught) {
      setError(messageOf(caught, t.actionFailed));
    } finally {
      setBusy(false);
    }
  }

  const radio = <V extends string>(name: string, value: V, current: V, set: (v: V) => void, label: string) => (
    <label className={ui.checkbox}>
      <input type="radio" className={ui.checkboxInput} name={name} checked={current === value} onChange={() => set(value)} />
      {label}
    </label>
  );
  const rows = (mappings.data ?? []).filter((m) => product === undefined || m.productId === product.id);
  const title = product ? `${t.mappingTitle} · ${product.text}` : t.mappingTitle;
  return (
    <section className={ui.card} aria-labelledby="mapping-title">
      <h2 id="mapping-title" className={ui.cardTitle}>
        {title}
      </h2>
      <p className={`${ui.hint} ${s.cardLead}`}>{t.mappingHint}</p>
      <form className={s.formGrid3} aria-label={title} onSubmit={(e) => void submit(e)} noValidate>
        <div className={ui.field}>
          <label htmlFor={ids.product} className={ui.label}>
            {t.mappingProduct}
          </label>
          <select id={ids.product} className={ui.input} value={productId} disabled={product !== undefined} onChange={(e) => setProductId(e.target.value)}>
            {product && <option value={String(product.id)}>#{product.id} {product.text}</option>}
            <option value="">{t.mappingChooseProduct}</option>
            {(product ? [] : (products.data ?? [])).map((p) => (
              <option key={p.id} value={String(p.id)}>
                #{p.id} {p.text}
              </option>
            ))}
          </select>
        </div>
        <fieldset className={`${ui.field} ${s.fieldset}`}>
          <legend className={ui.label}>{t.mappingMode}</legend>
          <span className={ui.row}>
            {radio('mapping-mode', 'provider', mode, setMode, t.modeProvider)}
            {radio('mapping-mode', 'manual', mode, setMode, t.modeManual)}
          </span>
        </fieldset>
        <span />
        {mode === 'provider' && (
          <>
            <div className={ui.field}>
              <label htmlFor={ids.provider} className={ui.label}>
                {t.mappingProvider}
              </label>
              <select
                id={ids.provider}
                className={ui.input}
                value={providerId}
                onChange={(e) => {
                  setProviderId(e.target.value);
                  setServiceId('');
                }}
              >
                <option value="">{t.mappingChooseProvider}</option>
                {providers.map((p) => (
                  <option key={p.id} value={String(p.id)}>
                    {p.name}
                  </option>
                ))}
              </select>
            </div>
            <div className={ui.field}>
              <label htmlFor={ids.service} className={ui.label}>
                {t.mappingService}
              </label>
              <select id={ids.service} className={ui.input} value={serviceId} disabled={providerId === ''} onChange={(e) => setServiceId(e.target.value)}>
                <option value="">{providerId !== '' && services.data && listed.length === 0 ? t.mappingNoServices : t.mappingChooseService}</option>
                {listed.map((x) => (
                  <option key={String(x.service)} value={String(x.service)}>
                    {t.serviceOption(String(x.service), x.name, x.rate, x.min, x.max)}
                  </option>
                ))}
              </select>
            </div>
            <span />
            <fieldset className={`${ui.field} ${s.fieldset}`}>
              <legend className={ui.label}>{t.mappingColumns.rule}</legend>
              <span className={ui.row}>
                {radio('mapping-rule', 'markup', ruleKind, setRuleKind, t.ruleMarkup)}
                {radio('mapping-rule', 'fixed', ruleKind, setRuleKind, t.ruleFixed)}
              </span>
            </fieldset>
            <div className={ui.field}>
              <label htmlFor={ids.amount} className={ui.label}>
                {ruleKind === 'markup' ? t.rulePercent : t.rulePrice}
              </label>
              <input id={ids.amount} className={ui.input} inputMode="decimal" value={ruleValue} onChange={(e) => setRuleValue(e.target.value)} />
            </div>
            <label className={ui.checkbox}>
              <input type="checkbox" className={ui.checkboxInput} checked={belowCost} onChange={(e) => setBelowCost(e.target.checked)} />
              {t.allowBelowCost}
            </label>
          </>
        )}
        <div className={s.formActions}>
          <button type="submit" className={ui.button.primary} disabled={busy}>
            {t.mappingSave}
          </button>
        </div>
      </form>
      {error && (
        <p className={`${ui.errorText} ${s.formHint}`} role="alert">
          {error}
        </p>
      )}
      <h3 className={s.subTitle}>{t.mappings}</h3>
      <div className={ui.tableWrap}>
        <table className={`${ui.table} ${s.table}`} aria-label={t.mappings}>
          <thead>
            <tr>
              <th className={ui.th}>{t.mappingColumns.product}</th>
              <th className={ui.th}>{t.mappingColumns.mode}</th>
              <th className={ui.th}>{t.mappingColumns.target}</th>
              <th className={ui.th}>{t.mappingColumns.rule}</th>
              <th className={`${ui.th} ${ui.num}`}>{t.mappingColumns.cost}</th>
              <th className={`${ui.th} ${ui.num}`}>{t.mappingColumns.price}</th>
              <th className={`${ui.th} ${ui.num}`}>{t.mappingColumns.limits}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((m) => (
              <tr key={m.productId} data-testid={`mapping-${m.productId}`}>
                <td className={ui.td}>{productName(m.productId)}</td>
                <td className={ui.td}>
                  <span className={m.mode === 'provider' ? ui.badge.primary : ui.badge.neutral}>{m.mode === 'provider' ? t.modeProvider : t.modeManual}</span>
                </td>
                <td className={ui.td}>
                  {m.mode === 'provider' ? (
                    <span className={s.twoLines}>
                      <span>
                        {providerName(m.providerId)} #{m.providerServiceId}
                      </span>
                      {m.suspendedReason && <span className={`${s.sub} ${s.warnText}`}>{t.suspended(m.suspendedReason)}</span>}
                    </span>
                  ) : (
                    <span className={ui.muted}>—</span>
                  )}
                </td>
                <td className={ui.td}>{t.ruleText(m.rule, won)}</td>
                <td className={`${ui.td} ${ui.num}`}>{m.costDeci === null ? '—' : won(m.costDeci)}</td>
                <td className={`${ui.td} ${ui.num}`}>{m.unitPriceDeci === null ? '—' : won(m.unitPriceDeci)}</td>
                <td className={`${ui.td} ${ui.num}`}>{m.min === null || m.max === null ? '—' : `${count(m.min)}~${count(m.max)}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {mappings.data && rows.length === 0 && <p className={ui.empty}>{t.mappingsEmpty}</p>}
      </div>
    </section>
  );
}
