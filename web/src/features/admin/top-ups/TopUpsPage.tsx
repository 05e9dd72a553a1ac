import { type FormEvent, useEffect, useId, useState } from 'react';
import useSWR from 'swr';
import { messageOf, post } from '../../../lib/api.ts';
import { dateTime, won } from '../../../lib/format.ts';
import { ChargeStatus, receiptTypeLabels } from '../../../lib/statuses.ts';
import type { Page } from '../../../lib/types.ts';
import { FilterChips, Pager } from '../../../ui/paging.tsx';
import { useToast } from '../../../ui/toast.tsx';
import * as ui from '../../../ui/ui.css.ts';
import { download } from '../admin-api.ts';
import * as s from '../admin.css.ts';
import { adminText as t } from '../messages.ts';
import { isUrgent, timeLeft } from './time-left.ts';
import { ApproveDialog, DetailDialog, RejectDialog } from './TopUpDialogs.tsx';
import { type AdminTopUp, type PaymentFilter } from './types.ts';
import { ConsoleTable } from '../ConsoleTable.tsx';

const statusOptions = [
  { value: ChargeStatus.values.PENDING, label: ChargeStatus.label(ChargeStatus.values.PENDING) },
  { value: ChargeStatus.values.SUCCESS, label: ChargeStatus.label(ChargeStatus.values.SUCCESS) },
  { value: ChargeStatus.values.FAIL, label: ChargeStatus.label(ChargeStatus.values.FAIL) },
  { value: null, label: t.all },
] as const;
const paymentOptions: ReadonlyArray<{ value: PaymentFilter; label: string }> = [
  { value: 'ALL', label: t.paymentAll },
  { value: 'CASH_AND_FEE', label: t.paymentCashAndFee },
  { value: 'FEE', label: t.paymentFee },
  { value: 'CASH', label: t.paymentCash },
  { value: 'NO_FEE', label: t.paymentNone },
];
const statusBadge: Record<number, string> = { 0: ui.badge.warning, 1: ui.badge.success, 2: ui.badge.danger };
const pageSize = 20;

type Dialog = { kind: 'approve' | 'reject' | 'detail'; row: AdminTopUp } | null;

/** The now, refreshed every 15 s, for the time-left column. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** Issue 12 / spec §9: the operators' top-up queue. */
export default function TopUpsPage() {
  const toast = useToast();
  const now = useNow();
  const searchField = useId();
  const [status, setStatus] = useState<number | null>(ChargeStatus.values.PENDING);
  const [payment, setPayment] = useState<PaymentFilter>('ALL');
  const [loginInput, setLoginInput] = useState('');
  const [loginId, setLoginId] = useState('');
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);

  const query = new URLSearchParams({ page: String(page), pageSize: String(pageSize), paymentType: payment });
  if (status !== null) query.set('status', String(status));
  if (loginId !== '') query.set('loginId', loginId);
  // New requests and the scheduler's expiries show up without a reload.
  const list = useSWR<Page<AdminTopUp>>(`/admin/top-ups?${query.toString()}`, { keepPreviousData: true, refreshInterval: 10_000 });

  const filtered = (apply: () => void) => {
    apply();
    setPage(1);
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    filtered(() => setLoginId(loginInput.trim()));
  };

  async function act(path: string, body: unknown, done: string) {
    if (busy) return;
    setBusy(true);
    try {
      await post(path, body);
      toast.success(done);
      setDialog(null);
      await list.mutate();
    } catch (error) {
      toast.error(messageOf(error, t.actionFailed));
      await list.mutate();
    } finally {
      setBusy(false);
    }
  }

  async function exportCsv() {
    const csvQuery = new URLSearchParams(query);
    csvQuery.delete('page');
    csvQuery.delete('pageSize');
    try {
      await download(`/admin/top-ups.csv?${csvQuery.toString()}`, 'top-ups.csv');
    } catch {
      toast.error(t.exportFailed);
    }
  }

  const rows = list.data?.items ?? [];
  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.topUps}</h1>
        <p className={ui.pageLead}>{t.topUpsLead}</p>
      </header>
      <section className={ui.card}>
        <div className={s.toolbar}>
          <div className={s.filters}>
            <div className={s.filterRow}>
              <span className={s.filterLabel}>{t.statusFilter}</span>
              <FilterChips label={t.statusFilter} options={statusOptions} value={status} onChange={(v) => filtered(() => setStatus(v))} />
            </div>
            <div className={s.filterRow}>
              <span className={s.filterLabel}>{t.paymentFilter}</span>
              <FilterChips label={t.paymentFilter} options={paymentOptions} value={payment} onChange={(v) => filtered(() => setPayment(v))} />
            </div>
          </div>
          <div className={s.filterRow}>
            <form className={s.search} role="search" onSubmit={search}>
              <label htmlFor={searchField} className="sr-only">
                {t.loginIdSearch}
              </label>
              <input id={searchField} className={`${ui.input} ${s.searchInput}`} value={loginInput} placeholder={t.loginIdPlaceholder} onChange={(e) => setLoginInput(e.target.value)} />
              <button type="submit" className={`${ui.button.secondary} ${ui.small}`}>
                {t.search}
              </button>
              {loginId !== '' && (
                <button
                  type="button"
                  className={`${ui.button.ghost} ${ui.small}`}
                  onClick={() => {
                    setLoginInput('');
                    filtered(() => setLoginId(''));
                  }}
                >
                  {t.clear}
                </button>
              )}
            </form>
            <button type="button" className={`${ui.button.soft} ${ui.small}`} onClick={() => void exportCsv()}>
              {t.exportCsv}
            </button>
          </div>
        </div>
      </section>
      <ConsoleTable
        label={t.topUps}
        list={list}
        rows={rows.length}
        emptyText={t.empty}
        failedText={t.loadFailed}
        retryLabel={t.retry}
        columns={[t.columns.id, t.columns.createdAt, t.columns.loginId, t.columns.depositor, { label: t.columns.transfer, num: true }, t.columns.receipt, t.columns.timeLeft, t.columns.status, t.columns.actions]}
      >
        {rows.map((row) => {
          const left = row.status === ChargeStatus.values.PENDING ? timeLeft(row.expiresAt, now) : null;
          return (
            <tr key={row.id} data-testid={`top-up-${row.id}`}>
              <td className={ui.td}>{row.id}</td>
              <td className={ui.td}>
                <span className={s.twoLines}>
                  <span>{dateTime(row.createdAt).slice(0, 10)}</span>
                  <span className={s.sub}>{dateTime(row.createdAt).slice(11)}</span>
                </span>
              </td>
              <td className={ui.td}>
                <span className={s.twoLines}>
                  <span>{row.loginId ?? t.unknownMember}</span>
                  <MemberFlag expired={row.memberExpiredRecently ?? 0} />
                </span>
              </td>
              <td className={ui.td}>{row.name}</td>
              <td className={`${ui.td} ${ui.num}`}>
                <span className={s.twoLines}>
                  <strong>{won(row.transferDeci)}</strong>
                  <span className={s.sub}>{t.chargePoint(won(row.pointDeci))}</span>
                </span>
              </td>
              <td className={ui.td}>
                <span className={s.twoLines}>
                  <span>{receiptTypeLabels[row.receiptType]}</span>
                  {row.receiptType !== 'none' && row.status === ChargeStatus.values.SUCCESS && (
                    <span>
                      <span className={row.receiptIssuedAt ? ui.badge.success : ui.badge.neutral}>{row.receiptIssuedAt ? t.issued : t.notIssued}</span>
                    </span>
                  )}
                </span>
              </td>
              <td className={ui.td}>
                {row.status !== ChargeStatus.values.PENDING ? (
                  <span className={ui.muted}>—</span>
                ) : left === null ? (
                  <span className={s.urgent}>{t.expired}</span>
                ) : (
                  <span className={isUrgent(row.expiresAt, now) ? s.urgent : undefined}>{left}</span>
                )}
              </td>
              <td className={ui.td}>
                <span className={statusBadge[row.status] ?? ui.badge.neutral}>{ChargeStatus.is(row.status) ? ChargeStatus.label(row.status) : row.status}</span>
                {row.expired && <span className={s.sub}> {t.expiredRow}</span>}
              </td>
              <td className={ui.td}>
                <div className={s.actions}>
                  {row.status === ChargeStatus.values.PENDING && (
                    <>
                      <button type="button" className={`${ui.button.primary} ${ui.small}`} onClick={() => setDialog({ kind: 'approve', row })}>
                        {t.approve}
                      </button>
                      <button type="button" className={`${ui.button.danger} ${ui.small}`} onClick={() => setDialog({ kind: 'reject', row })}>
                        {t.reject}
                      </button>
                    </>
                  )}
                  <button type="button" className={`${ui.button.secondary} ${ui.small}`} onClick={() => setDialog({ kind: 'detail', row })}>
                    {t.details}
                  </button>
                </div>
              </td>
            </tr>
          );
        })}
      </ConsoleTable>
      <Pager page={page} hasNext={list.data?.hasNext ?? false} onPage={setPage} label={t.pageLabel} />
      {dialog?.kind === 'approve' && (
        <ApproveDialog row={dialog.row} busy={busy} onClose={() => setDialog(null)} onConfirm={() => void act(`/admin/top-ups/${dialog.row.id}/approve`, {}, t.approved)} />
      )}
      {dialog?.kind === 'reject' && (
        <RejectDialog
          row={dialog.row}
          busy={busy}
          onClose={() => setDialog(null)}
          onConfirm={(reason) => void act(`/admin/top-ups/${dialog.row.id}/reject`, { reason }, t.rejected)}
        />
      )}
      {dialog?.kind === 'detail' && (
        <DetailDialog
          row={dialog.row}
          busy={busy}
          onClose={() => setDialog(null)}
          onMarkIssued={() => void act(`/admin/top-ups/${dialog.row.id}/receipt-issued`, {}, t.markedIssued)}
        />
      )}
    </>
  );
}

/** Issue 39: how often the member's requests expired unpaid this week; held (new requests refused) at 3. */
function MemberFlag({ expired }: { expired: number }) {
  if (expired === 0) return null;
  const held = expired >= heldAfterExpired;
  return (
    <span>
      <span className={held ? ui.badge.danger : ui.badge.warning} title={held ? t.heldHint : undefined} data-testid="member-flag">
        {held ? `${t.heldMember} · ${t.expiredUnpaid(expired)}` : t.expiredUnpaid(expired)}
      </span>
    </span>
  );
}

/** The wallet holds a member at this many (services/wallet/src/domain/top-up.ts heldAfterExpired). */
const heldAfterExpired = 3;
