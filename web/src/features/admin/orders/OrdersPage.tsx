import { type FormEvent, useId, useState } from 'react';
import type { BulkOrderChangeRequest } from '@smm/contracts/http';
import useSWR from 'swr';
import { messageOf, post } from '../../../lib/api.ts';
import { count, dateTime, won } from '../../../lib/format.ts';
import { OrderStatus } from '../../../lib/statuses.ts';
import type { Service } from '../../../lib/types.ts';
import { FilterChips, Pager } from '../../../ui/paging.tsx';
import { useToast } from '../../../ui/toast.tsx';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { adminText as t } from '../messages.ts';
import { ReviewLink } from '../review/ReviewLink.tsx';
import { EditOrderDialog, type OrderPatch } from './EditOrderDialog.tsx';
import { ForwardingCell, ForwardingState } from './ForwardingCell.tsx';
import * as oc from './orders.css.ts';
import { type AdminOrder, type BulkResult, type OrdersPage as OrdersAnswer, type PaidOrder, type ProviderName, isPaid } from './types.ts';
import { ConsoleTable } from '../ConsoleTable.tsx';
import { requestText as r } from '../requests/messages.ts';

const statuses = Object.values(OrderStatus.values);
const statusOptions = [{ value: null, label: t.all }, ...statuses.map((v) => ({ value: v as number | null, label: OrderStatus.label(v) }))];
const pageSize = 20;
type Filters = { orderId: string; loginId: string; link: string; serviceId: string; providerId: string };
const noFilters: Filters = { orderId: '', loginId: '', link: '', serviceId: '', providerId: '' };

/** Issue 12: orders searched on the server, one or many moved to a new status. */
export default function OrdersPage() {
  const toast = useToast();
  const ids = { orderId: useId(), loginId: useId(), link: useId(), service: useId(), provider: useId(), bulk: useId() };
  const [draft, setDraft] = useState<Filters>(noFilters);
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [status, setStatus] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [bulkStatus, setBulkStatus] = useState<number>(OrderStatus.values.IN_PROGRESS);
  const [editing, setEditing] = useState<PaidOrder | null>(null);
  const [editError, setEditError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const services = useSWR<Service[]>('/service/services');
  const providers = useSWR<ProviderName[]>('/admin/orders/providers');

  const query = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (status !== null) query.set('status', String(status));
  for (const [key, value] of Object.entries(filters)) if (value.trim() !== '') query.set(key, value.trim());
  const list = useSWR<OrdersAnswer>(`/admin/orders/search?${query.toString()}`, { keepPreviousData: true });
  const rows = list.data?.items ?? [];

  const reset = () => {
    setPage(1);
    setSelected(new Set());
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    reset();
  };
  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  async function change(idsToChange: number[], patch: OrderPatch): Promise<BulkResult | null> {
    if (busy) return null;
    setBusy(true);
    try {
      return await post<BulkResult>('/admin/orders/bulk', { ids: idsToChange, ...patch } satisfies BulkOrderChangeRequest);
    } catch (error) {
      toast.error(messageOf(error, t.actionFailed));
      return null;
    } finally {
      setBusy(false);
      await list.mutate();
    }
  }

  async function applyBulk() {
    const answer = await change([...selected], { status: bulkStatus });
    if (!answer) return;
    const failed = answer.results.filter((r) => !r.ok).length;
    const text = t.bulkDone(answer.results.length - failed, failed);
    if (failed === 0) toast.success(text);
    else toast.error(`${text} ${answer.results.find((r) => !r.ok)?.message ?? ''}`);
    setSelected(new Set());
  }

  async function saveOne(order: AdminOrder, patch: OrderPatch) {
    if (Object.keys(patch).length === 0) return setEditing(null);
    const answer = await change([order.id], patch);
    const result = answer?.results[0];
    if (!result) return;
    if (result.ok) {
      toast.success(t.saved);
      setEditing(null);
    } else setEditError(result.message ?? t.actionFailed);
  }

  const field = (key: keyof Filters, id: string, label: string, width = 150) => (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input id={id} className={`${ui.input} ${s.searchInput}`} style={{ width }} placeholder={label} value={draft[key]} onChange={(e) => setDraft({ ...draft, [key]: e.target.value })} />
    </>
  );
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.id));
  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.orders}</h1>
        <p className={ui.pageLead}>{t.ordersLead}</p>
        <ReviewLink />
      </header>
      <section className={ui.card}>
        <div className={s.filters}>
          <form className={s.filterRow} role="search" onSubmit={search}>
            {field('orderId', ids.orderId, t.orderIdFilter, 110)}
            {field('loginId', ids.loginId, t.loginIdFilter, 150)}
            {field('link', ids.link, t.linkFilter, 240)}
            <label htmlFor={ids.service} className="sr-only">
              {t.serviceFilter}
            </label>
            <select id={ids.service} className={`${ui.input} ${s.searchInput}`} style={{ width: 200 }} value={draft.serviceId} onChange={(e) => setDraft({ ...draft, serviceId: e.target.value })}>
              <option value="">{t.allServices}</option>
              {services.data?.map((svc) => (
                <option key={svc.id} value={String(svc.id)}>
                  {svc.text}
                </option>
              ))}
            </select>
            <label htmlFor={ids.provider} className="sr-only">
              {t.providerFilter}
            </label>
            <select id={ids.provider} className={`${ui.input} ${s.searchInput}`} style={{ width: 170 }} value={draft.providerId} onChange={(e) => setDraft({ ...draft, providerId: e.target.value })}>
              <option value="">{t.allProviders}</option>
              {providers.error && !providers.data && <option disabled>{r.providersUnavailable}</option>}
              {providers.data?.map((p) => (
                <option key={p.id} value={String(p.id)}>
                  {p.name}
                </option>
              ))}
            </select>
            <button type="submit" className={`${ui.button.secondary} ${ui.small}`}>
              {t.search}
            </button>
          </form>
          <div className={s.filterRow}>
            <span className={s.filterLabel}>{t.orderStatusFilter}</span>
            <FilterChips
              label={t.orderStatusFilter}
              options={statusOptions}
              value={status}
              onChange={(v) => {
                setStatus(v);
                reset();
              }}
            />
          </div>
        </div>
      </section>
      <div className={s.filterRow}>
        <span className={ui.muted}>{t.selected(selected.size)}</span>
        <label htmlFor={ids.bulk} className="sr-only">
          {t.bulkStatus}
        </label>
        <select id={ids.bulk} className={`${ui.input} ${s.searchInput}`} style={{ width: 160 }} value={bulkStatus} onChange={(e) => setBulkStatus(Number(e.target.value))}>
          {statuses.map((v) => (
            <option key={v} value={v}>
              {OrderStatus.label(v)}
            </option>
          ))}
        </select>
        <button type="button" className={`${ui.button.primary} ${ui.small}`} disabled={selected.size === 0 || busy} onClick={() => void applyBulk()}>
          {t.bulkApply}
        </button>
      </div>
      <ConsoleTable
        label={t.orders}
        list={list}
        rows={rows.length}
        emptyText={t.ordersEmpty}
        failedText={t.loadFailed}
        columns={[
          {
            label: (
              <input
                type="checkbox"
                className={ui.checkboxInput}
                aria-label={t.selectAll}
                checked={allOnPage}
                onChange={() => setSelected(allOnPage ? new Set() : new Set(rows.map((r) => r.id)))}
              />
            ),
          },
          t.orderColumnsFull.id,
          t.orderColumnsFull.createdAt,
          t.orderColumnsFull.loginId,
          t.orderColumnsFull.service,
          t.orderColumnsFull.link,
          { label: t.orderColumnsFull.amount, num: true },
          { label: t.orderColumnsFull.start, num: true },
          t.orderColumnsFull.status,
          t.orderColumnsFull.forwarding,
          { label: t.orderColumnsFull.provider, className: oc.wideOnly },
          t.orderColumnsFull.actions,
        ]}
        notes={
          <>
            {list.data?.forwardingUnavailable && (
              <p className={ui.muted} role="status" data-testid="forwarding-unavailable">
                {filters.providerId.trim() !== '' ? r.providerFilterUnavailable : t.forwardingUnavailable}
              </p>
            )}
            {list.data?.scanLimited && (
              <p className={ui.muted} role="status">
                {t.scanLimited}
              </p>
            )}
          </>
        }
      >
        {rows.map((o) => (
          <tr key={o.id} data-testid={`order-${o.id}`}>
            <td className={ui.td}>
              <input type="checkbox" className={ui.checkboxInput} aria-label={t.selectOrder(o.id)} checked={selected.has(o.id)} onChange={() => toggle(o.id)} />
            </td>
            <td className={ui.td}>{o.id}</td>
            <td className={ui.td}>
              <span className={s.twoLines}>
                <span>{dateTime(o.createdAt).slice(0, 10)}</span>
                <span className={s.sub}>{dateTime(o.createdAt).slice(11)}</span>
              </span>
            </td>
            <td className={ui.td}>{o.loginId ?? t.unknownMember}</td>
            <td className={ui.tdWrap}>{o.serviceText}</td>
            <td className={ui.td}>
              <span className={s.clip} title={o.link}>
                {o.link}
              </span>
            </td>
            <td className={`${ui.td} ${ui.num}`}>
              <span className={s.twoLines}>
                <span>{count(o.amount)}</span>
                <span className={s.sub}>{won(o.pointDeci)}</span>
              </span>
            </td>
            <td className={`${ui.td} ${ui.num}`}>
              {o.startCount === null ? '—' : count(o.startCount)} / {count(o.remains)}
            </td>
            <td className={ui.td}>
              <span className={ui.badge.neutral} style={{ whiteSpace: 'nowrap' }}>
                {o.status === null ? (o.payment === 'rejected' ? t.paymentRejected : t.paymentAwaiting) : OrderStatus.is(o.status) ? OrderStatus.label(o.status) : o.status}
              </span>
            </td>
            <td className={ui.td}>
              <ForwardingState forwarding={o.forwarding} unavailable={list.data?.forwardingUnavailable === true} />
            </td>
            <td className={`${ui.td} ${oc.wideOnly}`}>
              <ForwardingCell forwarding={o.forwarding} />
            </td>
            <td className={ui.td}>
              {isPaid(o) && (
                <button
                  type="button"
                  className={`${ui.button.secondary} ${ui.small}`}
                  onClick={() => {
                    setEditError(null);
                    setEditing(o);
                  }}
                >
                  {t.edit}
                </button>
              )}
            </td>
          </tr>
        ))}
      </ConsoleTable>
      <Pager
        page={page}
        hasNext={list.data?.hasNext ?? false}
        onPage={(p) => {
          setPage(p);
          setSelected(new Set());
        }}
        label={t.orders}
      />
      {editing && <EditOrderDialog order={editing} busy={busy} error={editError} onClose={() => setEditing(null)} onSave={(patch) => void saveOne(editing, patch)} />}
    </>
  );
}
