import { useId, useMemo, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../auth/auth.tsx';
import { MegaphoneIcon } from '../../layout/icons.tsx';
import { ApiError, messageOf, post } from '../../lib/api.ts';
import { count, won } from '../../lib/format.ts';
import { keys, useSettings } from '../../lib/settings.ts';
import { loading } from '../../ui/loading.tsx';
import { useToast } from '../../ui/toast.tsx';
import * as ui from '../../ui/ui.css.ts';
import { useCatalog, useNotices } from './catalog.ts';
import { orderText as t } from './messages.ts';
import * as s from './order.css.ts';
import {
  attemptEnded,
  attemptFor,
  categoriesOf,
  emptyForm,
  findService,
  orderPayload,
  selectCategory,
  selectPlatform,
  selectService,
  servicesOf,
  toggleAuto,
  totalPriceDeci,
  totalQuantity,
  validateOrder,
} from './order-form.ts';
import type { OrderAttempt, OrderField, OrderForm, OrderProblem } from './order-form.ts';
import { PlatformIcon } from './platform-icons.tsx';

type OrderAnswer = { outcome: 'accepted' | 'awaiting_payment'; order: { id: string | number; kind: 'order' | 'auto' } };

/** How many placeholder tiles stand for the platforms while the catalogue loads (the usual count). */
const platformPlaceholders = 7;

function NoticeBoard() {
  const { data, error } = useNotices();
  const loadingNotices = !data && !error;
  // Spec §2: notices with isTop first (highlighted), then the rest, each group in server order.
  const notices = useMemo(() => [...(data ?? [])].sort((a, b) => Number(b.isTop) - Number(a.isTop)), [data]);
  return (
    <section className={ui.card} aria-labelledby="notice-title">
      <h2 id="notice-title" className={ui.cardTitle}>
        <MegaphoneIcon /> {t.notices}
      </h2>
      <ul className={s.noticeBox} style={{ listStyle: 'none', margin: 0, padding: 0 }} tabIndex={0} aria-label={t.notices}>
        {loadingNotices && [0, 1].map((i) => <li key={i} className={s.noticeSkeleton} aria-hidden="true" />)}
        {!loadingNotices && notices.length === 0 && <li className={ui.muted}>{t.noNotices}</li>}
        {notices.map((n, i) => (
          <li key={n.id ?? i} className={n.isTop ? s.noticeTop : s.notice} data-top={n.isTop || undefined}>
            {n.content}
          </li>
        ))}
      </ul>
    </section>
  );
}

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
  const ids = { category: useId(), service: useId(), link: useId(), amount: useId(), runs: useId(), interval: useId(), total: useId() };
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

  // The first visible platform is chosen once the catalogue arrives (spec §4 resets follow). Set
  // while rendering, so React renders the page again at once with the platform chosen instead of
  // committing and painting the page without it first (one render of the whole form less).
  const first = catalog.platforms[0];
  if (form.platformId === null && first && !catalog.loading) setForm(selectPlatform(form, model, first.id));

  const categories = useMemo(() => categoriesOf(model, form.platformId), [model, form.platformId]);
  const services = useMemo(() => servicesOf(model, form.categoryId), [model, form.categoryId]);
  const service = findService(model, form.serviceId);
  const fullService = form.serviceId === null ? undefined : serviceById.get(String(form.serviceId));
  const serviceCheck = settings.enabled(keys.enableServiceCheck);
  const disabled = serviceCheck || Boolean(service?.isReadOnly);
  const priceDeci = totalPriceDeci(service, form);
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
      navigate(form.auto ? '/auto-order-history' : '/order-history');
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
          <section className={ui.card} aria-labelledby="platform-title">
            <h2 id="platform-title" className={ui.cardTitle}>
              {t.platforms}
            </h2>
            {catalog.error && <p className={s.problem}>{t.loadFailed}</p>}
            <div className={s.grid} role="group" aria-labelledby="platform-title" aria-busy={catalog.loading || undefined}>
              {catalog.loading &&
                catalog.platforms.length === 0 &&
                Array.from({ length: platformPlaceholders }, (_, i) => (
                  <span key={i} className={s.platformSkeleton} aria-hidden="true" data-testid="platform-skeleton">
                    <span className={s.skeletonIcon} />
                    <span className={s.skeletonText} />
                  </span>
                ))}
              {catalog.platforms.map((p) => (
                <button
                  key={p.id}
                  type="button"
                  className={s.platform}
                  aria-pressed={form.platformId === p.id}
                  onClick={() => update(selectPlatform(form, model, p.id))}
                  data-platform-id={p.id}
                >
                  <span className={s.platformIcon} style={{ background: p.background }}>
                    <PlatformIcon id={p.id} background={p.background} />
                  </span>
                  {p.text}
                </button>
              ))}
            </div>
          </section>
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
                          {full?.text} — {t.perUnit(won(x.unitPriceDeci))}
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
              <div className={s.step}>
                <span className={s.stepNo} aria-hidden="true">5</span>
                <div className={ui.field}>
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
                  {service?.enableAuto && (
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
                        <div className={s.autoBox}>
                          <div className={ui.field}>
                            <label htmlFor={ids.runs} className={ui.label}>{t.runs}</label>
                            <input
                              id={ids.runs}
                              ref={(el) => { fieldRefs.current.runs = el; }}
                              className={ui.input}
                              type="number"
                              inputMode="numeric"
                              min={2}
                              step={1}
                              value={form.runs}
                              onChange={(e) => update({ ...form, runs: e.target.value })}
                              disabled={disabled}
                              aria-invalid={invalid('runs')}
                            />
                            <span className={ui.hint}>{t.runsHint}</span>
                          </div>
                          <div className={ui.field}>
                            <label htmlFor={ids.interval} className={ui.label}>{t.interval}</label>
                            <input
                              id={ids.interval}
                              ref={(el) => { fieldRefs.current.interval = el; }}
                              className={ui.input}
                              type="number"
                              inputMode="numeric"
                              min={60}
                              step={1}
                              value={form.interval}
                              onChange={(e) => update({ ...form, interval: e.target.value })}
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
                      )}
                    </div>
                  )}
                </div>
              </div>
            </div>
          </section>
        </div>
        <aside className={s.summary} aria-label="결제 요약">
          <section className={ui.card}>
            <h2 className={ui.cardTitle}>주문 요약</h2>
            <div className={ui.stack} style={{ gap: 10 }}>
              <div className={s.summaryRow}>
                <span>상품</span>
                <span className={s.summaryValue} style={{ textAlign: 'right' }}>{fullService?.text ?? '—'}</span>
              </div>
              <div className={s.summaryRow}>
                <span>단가</span>
                <span className={s.summaryValue}>{service ? t.perUnit(won(service.unitPriceDeci)) : '—'}</span>
              </div>
              <div className={s.summaryRow}>
                <span>{t.totalQuantity}</span>
                <span className={s.summaryValue}>{count(totalQuantity(form))}개</span>
              </div>
              <div className={s.summaryRow}>
                <span>{t.balance}</span>
                <span className={s.summaryValue}>{won(balanceDeci)}</span>
              </div>
              <hr style={{ border: 0, borderTop: '1px solid', opacity: 0.12, width: '100%', margin: '4px 0' }} />
              <div className={s.summaryRow}>
                <span>{t.totalPrice}</span>
                <output className={s.total} aria-live="polite" data-testid="total-price">{won(priceDeci)}</output>
              </div>
              {serviceCheck && <p className={s.warn} role="note">{t.serviceCheck}</p>}
              {problem?.field === 'balance' && <p className={s.problem} role="alert">{problem.message}</p>}
              <button
                type="submit"
                className={`${ui.button.primary} ${ui.block}`}
                disabled={disabled || busy}
                ref={(el) => { fieldRefs.current.balance = el; }}
                style={{ minHeight: 52, fontSize: 16 }}
              >
                {busy ? t.submitting : t.submit}
              </button>
            </div>
          </section>
        </aside>
      </form>
    </div>
  );
}
