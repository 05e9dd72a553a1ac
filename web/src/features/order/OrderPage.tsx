import { useId, useMemo, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../auth/auth.tsx';
import { ApiError, messageOf, post } from '../../lib/api.ts';
import { useCatalog } from '../../lib/catalog.ts';
import { count, won } from '../../lib/format.ts';
import { keys, useSettings } from '../../lib/settings.ts';
import { storage } from '../../lib/storage.ts';
import { loading } from '../../ui/loading.tsx';
import { useToast } from '../../ui/toast.tsx';
import * as ui from '../../ui/ui.css.ts';
import { orderText as t } from './messages.ts';
import * as s from './order.css.ts';
import {
  attemptEnded,
  attemptFor,
  categoriesOf,
  emptyForm,
  fillChoice,
  findService,
  orderPayload,
  selectCategory,
  selectPlatform,
  selectService,
  servicesOf,
  toggleAuto,
  totalPriceDeci,
  totalQuantity,
  typeOf,
  validateOrder,
} from './order-form.ts';
import type { OrderAttempt, OrderField, OrderForm, OrderProblem } from './order-form.ts';
import { AutoOrderFields } from './AutoOrderFields.tsx';
import { NoticeBoard } from './NoticeBoard.tsx';
import { OrderSummary } from './OrderSummary.tsx';
import { PlatformPicker } from './PlatformPicker.tsx';
import { TypedOrderFields } from './TypedOrderFields.tsx';

type OrderAnswer = { outcome: 'accepted' | 'awaiting_payment'; order: { id: string | number; kind: 'order' | 'auto' } };

export default function OrderPage() {
  const auth = useAuth();
  const settings = useSettings();
  const toast = useToast();
  const navigate = useNavigate();
  const catalog = useCatalog();
  const [form, setForm] = useState<OrderForm>(emptyForm);
  const [problem, setProblem] = useState<OrderProblem | null>(null);
  const submitting = useRef(false);
  // The order being placed and its Idempotency-Key, until an answer settles it (see attemptFor).
  const attempt = useRef<OrderAttempt | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { category: useId(), service: useId(), link: useId(), amount: useId(), runs: useId(), interval: useId(), total: useId(), comments: useId(), usernames: useId(), username: useId(), subMin: useId(), subMax: useId(), posts: useId(), delay: useId(), expiry: useId() };
  const fieldRefs = useRef<Partial<Record<OrderField, HTMLElement | null>>>({});

  const model = useMemo(
    () => ({
      categories: catalog.categories.map((c) => ({ ...c, platformId: Number(c.platformId) })),
      services: catalog.services,
    }),
    [catalog.categories, catalog.services],
  );
  /** The catalogue's services by id, for the product list's names (one pass per answer). */
  const serviceById = useMemo(() => new Map(catalog.services.map((x) => [String(x.id), x])), [catalog.services]);

  // The first visible platform is chosen once the catalogue arrives (spec §4 resets follow), and a
  // category or product list that comes later fills in what is still missing. Set while rendering,
  // so React renders the page again at once with the choice made instead of committing and
  // painting the page without it first (one render of the whole form less).
  const filled = catalog.loading ? form : fillChoice(form, model, catalog.platforms[0]?.id);
  if (filled !== form) setForm(filled);

  const categories = useMemo(() => categoriesOf(model, form.platformId), [model, form.platformId]);
  const services = useMemo(() => servicesOf(model, form.categoryId), [model, form.categoryId]);
  const service = findService(model, form.serviceId);
  const fullService = form.serviceId === null ? undefined : serviceById.get(String(form.serviceId));
  const serviceCheck = settings.enabled(keys.enableServiceCheck);
  const disabled = serviceCheck || Boolean(service?.isReadOnly);
  const priceDeci = totalPriceDeci(service, form);
  const type = typeOf(service);
  // Custom comments and mentions count their lines; a package has its own quantity.
  const takesAmount = type === 'default' || type === 'comment-likes';
  const balanceDeci = auth.profile?.pointDeci ?? 0;

  const update = (next: OrderForm) => {
    setForm(next);
    setProblem(null);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    // Spec §4: a submit while one is pending is ignored.
    if (submitting.current || disabled) return;
    const found = validateOrder(form, service, balanceDeci, { guest: !auth.isMember });
    if (found?.field === 'balance' && auth.isMember) {
      // A member suspended since the page loaded is told that, not "포인트가 부족합니다" (issue 40):
      // the profile is read again first, and a suspension ends the session there with its message.
      submitting.current = true;
      await auth.refreshProfile().catch(() => undefined);
      submitting.current = false;
      if (storage.token() === null) return;
    }
    if (found || !service) {
      setProblem(found);
      if (found) {
        toast.error(found.message);
        fieldRefs.current[found.field]?.focus();
      }
      return;
    }
    submitting.current = true;
    setBusy(true);
    const payload = orderPayload(form, service);
    attempt.current = attemptFor(attempt.current, payload);
    try {
      const answer = await loading.around(post<OrderAnswer>('/service/order', payload, { 'idempotency-key': attempt.current.key }));
      attempt.current = null;
      const awaiting = answer?.outcome === 'awaiting_payment';
      toast.success(awaiting ? t.awaiting : t.success);
      // The debit (now or, for a pending payment, a moment later) reaches the balance and the
      // history through the live channel (lib/live.ts).
      navigate(form.auto || type === 'subscriptions' ? '/auto-order-history' : '/order-history');
    } catch (error) {
      if (error instanceof ApiError && attemptEnded(error.status)) attempt.current = null;
      const message = messageOf(error, '');
      toast.error(message ? `${t.failed} ${message}` : t.failed);
      // Repriced since the screen read the catalogue: nothing was charged; show the new price so
      // the member can check it and order again.
      if (error instanceof ApiError && error.code === 'PRICE_CHANGED') void catalog.reloadServices();
    } finally {
      submitting.current = false;
      setBusy(false);
    }
  }

  const invalid = (field: OrderField) => (problem?.field === field ? true : undefined);
  const errorFor = (field: OrderField) =>
    problem?.field === field ? (
      <p className={ui.errorText} role="alert" id={`${field}-error`}>
        {problem.message}
      </p>
    ) : null;

  return (
    <div className={ui.page}>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.title}</h1>
        <p className={ui.pageLead}>{t.lead}</p>
      </header>
      <form className={s.layout} onSubmit={submit} noValidate aria-label="주문서">
        <div className={s.column}>
          <NoticeBoard />
          <PlatformPicker catalog={catalog} chosen={form.platformId} onChoose={(id) => update(selectPlatform(form, model, id))} />
          <section className={ui.card} aria-label="주문 정보">
            <div className={s.steps}>
              <div className={s.step}>
                <span className={s.stepNo} aria-hidden="true">1</span>
                <div className={ui.field}>
                  <label htmlFor={ids.category} className={ui.label}>{t.step1}</label>
                  <select
                    id={ids.category}
                    className={ui.input}
                    value={form.categoryId === null ? '' : String(form.categoryId)}
                    onChange={(e) => update(selectCategory(form, model, categories.find((c) => String(c.id) === e.target.value)?.id ?? null))}
                    disabled={serviceCheck || categories.length === 0}
                  >
                    {categories.length === 0 && <option value="">{catalog.loading ? t.loadingCatalog : t.noCategories}</option>}
                    {categories.map((c) => (
                      <option key={c.id} value={String(c.id)}>{c.text}</option>
                    ))}
                  </select>
                </div>
              </div>
              <div className={s.step}>
                <span className={s.stepNo} aria-hidden="true">2</span>
                <div className={ui.field}>
                  <label htmlFor={ids.service} className={ui.label}>{t.step2}</label>
                  <select
                    id={ids.service}
                    ref={(el) => { fieldRefs.current.service = el; }}
                    className={ui.input}
                    value={form.serviceId === null ? '' : String(form.serviceId)}
                    onChange={(e) => update(selectService(form, model, e.target.value || null))}
                    disabled={serviceCheck || services.length === 0}
                    aria-invalid={invalid('service')}
                  >
                    {services.length === 0 && <option value="">{catalog.loading ? t.loadingCatalog : t.noServices}</option>}
                    {services.map((x) => {
                      const full = serviceById.get(String(x.id));
                      return (
                        <option key={x.id} value={String(x.id)}>
                          {full?.text} — {typeOf(x) === 'package' ? t.perPackage(won(x.unitPriceDeci)) : t.perUnit(won(x.unitPriceDeci))}
                          {full?.listUnitPriceDeci !== undefined ? t.memberPriceOption : ''}
                          {x.isReadOnly ? ' (주문 중지)' : ''}
                        </option>
                      );
                    })}
                  </select>
                  {errorFor('service')}
                </div>
              </div>
              <div className={s.step}>
                <span className={s.stepNo} aria-hidden="true">3</span>
                <div className={ui.field}>
                  <span className={ui.label} id="product-notice-label">{t.step3}</span>
                  <div className={s.productNotice} aria-labelledby="product-notice-label" data-testid="product-notice">
                    {fullService?.notice || '—'}
                  </div>
                  {service?.isReadOnly && <p className={s.warn} role="note">{t.readOnly}</p>}
                </div>
              </div>
              {type !== 'subscriptions' && (
              <div className={s.step}>
                <span className={s.stepNo} aria-hidden="true">4</span>
                <div className={ui.field}>
                  <label htmlFor={ids.link} className={ui.label}>{t.step4}</label>
                  <input
                    id={ids.link}
                    ref={(el) => { fieldRefs.current.link = el; }}
                    className={ui.input}
                    type="text"
                    inputMode="url"
                    autoComplete="off"
                    placeholder={t.linkPlaceholder}
                    value={form.link}
                    onChange={(e) => update({ ...form, link: e.target.value })}
                    disabled={disabled}
                    aria-invalid={invalid('link')}
                    aria-describedby="link-hint"
                  />
                  <p className={ui.hint} id="link-hint">{t.linkHint}</p>
                  {errorFor('link')}
                </div>
              </div>
              )}
              <div className={s.step}>
                <span className={s.stepNo} aria-hidden="true">{type === 'subscriptions' ? 4 : 5}</span>
                <div className={ui.field}>
                  {service && (
                    <TypedOrderFields
                      form={form}
                      service={service}
                      ids={ids}
                      disabled={disabled}
                      onChange={update}
                      fieldRef={(field, el) => { fieldRefs.current[field] = el; }}
                      invalid={invalid}
                      errorFor={errorFor}
                    />
                  )}
                  {takesAmount && (
                  <>
                  <label htmlFor={ids.amount} className={ui.label}>{t.step5}</label>
                  <input
                    id={ids.amount}
                    ref={(el) => { fieldRefs.current.amount = el; }}
                    className={ui.input}
                    type="number"
                    inputMode="numeric"
                    min={service?.min}
                    max={service?.max}
                    step={1}
                    value={form.amount}
                    onChange={(e) => update({ ...form, amount: e.target.value })}
                    disabled={disabled}
                    aria-invalid={invalid('amount')}
                    aria-describedby="amount-hint"
                  />
                  <p className={ui.hint} id="amount-hint">
                    {service ? t.minMax(count(service.min), count(service.max)) : ''}
                  </p>
                  {errorFor('amount')}
                  </>
                  )}
                  {service?.enableAuto && type === 'default' && (
                    <div style={{ marginTop: 6 }}>
                      <label className={ui.checkbox}>
                        <input
                          type="checkbox"
                          className={ui.checkboxInput}
                          checked={form.auto}
                          onChange={(e) => update(toggleAuto(form, e.target.checked))}
                          disabled={disabled}
                        />
                        {t.auto}
                      </label>
                      <p className={ui.hint}>{t.autoHint}</p>
                      {form.auto && (
                        <AutoOrderFields
                          form={form}
                          ids={ids}
                          disabled={disabled}
                          onChange={update}
                          fieldRef={(field, el) => { fieldRefs.current[field] = el; }}
                          invalid={invalid}
                          errorFor={errorFor}
                        />
                      )}
                    </div>
                  )}
                </div>
              </div>
            </div>
          </section>
        </div>
        <OrderSummary
          productName={fullService?.text}
          unitPriceDeci={service?.unitPriceDeci}
          perPackage={type === 'package'}
          listUnitPriceDeci={fullService?.listUnitPriceDeci}
          quantity={totalQuantity(form, service)}
          balanceDeci={balanceDeci}
          priceDeci={priceDeci}
          serviceCheck={serviceCheck}
          balanceProblem={problem?.field === 'balance' ? problem.message : undefined}
          disabled={disabled}
          busy={busy}
          submitRef={(el) => { fieldRefs.current.balance = el; }}
        />
      </form>
    </div>
  );
}
