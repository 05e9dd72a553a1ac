import { Fragment, useState } from 'react';
import type { ReactNode } from 'react';
import { messageOf, post } from '../../lib/api.ts';
import { dateTime, won } from '../../lib/format.ts';
import { ChargeStatus } from '../../lib/statuses.ts';
import type { TopUp } from '../../lib/types.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { useMediaQuery } from '../../ui/media.ts';
import { Pager, usePaged } from '../../ui/paging.tsx';
import { useToast } from '../../ui/toast.tsx';
import * as ui from '../../ui/ui.css.ts';
import { pointText as t } from './messages.ts';
import * as s from './point.css.ts';

/** The status badge, saying who ended a failed request (issue 40: not only "충전 실패"). */
function statusBadge(item: TopUp) {
  const { SUCCESS, FAIL } = ChargeStatus.values;
  const tone = item.status === SUCCESS ? 'success' : item.status === FAIL ? (item.endedBy === 'member' ? 'neutral' : 'danger') : 'warning';
  const label = item.status === FAIL && item.endedBy ? t.endedBy[item.endedBy] : (ChargeStatus.labels[item.status] ?? String(item.status));
  return <span className={ui.badge[tone]} data-testid="top-up-status">{label}</span>;
}

/** The operator's reason for a rejection, or what ended the request. */
function reasonOf(item: TopUp): string {
  if (item.status !== ChargeStatus.values.FAIL) return '—';
  if (item.endedBy === 'operator') return item.rejectReason ? item.rejectReason : t.noReason;
  return item.endedBy === 'expiry' ? t.expiredNote : item.endedBy === 'member' ? t.canceledNote : '—';
}

type Column = { head: string; numeric?: boolean; cell(item: TopUp): ReactNode };

const columns: Column[] = [
  { head: t.colCreatedAt, cell: (i) => dateTime(i.createdAt) },
  { head: t.colPoint, numeric: true, cell: (i) => won(i.pointDeci) },
  { head: t.colStatus, cell: statusBadge },
  { head: t.colResponseAt, cell: (i) => dateTime(i.responseAt) || '—' },
  { head: t.colReason, cell: (i) => <span className={s.reason}>{reasonOf(i)}</span> },
];

/** The top-up history (spec §2): a table on wide screens, a card per request on a phone; a pending request can be cancelled. */
export function TopUpHistory() {
  const [page, setPage] = useState(1);
  const { data, error, mutate } = usePaged<TopUp>('/service/point-history', page);
  const narrow = useMediaQuery('screen and (max-width: 880px)');
  const toast = useToast();
  const [target, setTarget] = useState<TopUp | null>(null);
  const [busy, setBusy] = useState(false);
  const items = data?.items ?? [];

  async function cancel() {
    if (!target || busy) return;
    setBusy(true);
    try {
      await post(`/service/point/${target.id}/cancel`);
      toast.success(t.cancelDone);
    } catch (e) {
      toast.error(messageOf(e, t.cancelFailed));
    } finally {
      setBusy(false);
      setTarget(null);
      void mutate();
    }
  }

  const action = (item: TopUp) =>
    item.status === ChargeStatus.values.PENDING ? (
      <button type="button" className={`${ui.button.danger} ${ui.small}`} onClick={() => setTarget(item)}>{t.cancel}</button>
    ) : null;

  return (
    <section className={ui.card} aria-labelledby="point-history-title">
      <h2 id="point-history-title" className={ui.cardTitle}>{t.history}</h2>
      {narrow !== true && (
        <div className={`${ui.tableWrap} ${s.tableView}`}>
          <table className={ui.table}>
            <thead>
              <tr>
                <th className={ui.th} scope="col">{t.colId}</th>
                {columns.map((c) => (
                  <th key={c.head} className={c.numeric ? `${ui.th} ${ui.num}` : ui.th} scope="col">{c.head}</th>
                ))}
                <th className={ui.th} scope="col">{t.colManage}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id} data-testid="top-up-row">
                  <td className={ui.td}>{String(item.id).slice(-8)}</td>
                  {columns.map((c) => (
                    <td key={c.head} className={c.numeric ? `${ui.td} ${ui.num}` : c.head === t.colReason ? ui.tdWrap : ui.td}>{c.cell(item)}</td>
                  ))}
                  <td className={ui.td}>{action(item)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {narrow !== false && (
        <ul className={s.cardView} aria-label={t.history}>
          {items.map((item) => (
            <li key={item.id} className={s.historyCard} data-testid="top-up-card">
              <div className={s.cardHead}>
                <span>{t.colId} {String(item.id).slice(-8)}</span>
                {statusBadge(item)}
              </div>
              <dl className={s.fields}>
                {columns.filter((c) => c.head !== t.colStatus).map((c) => (
                  <Fragment key={c.head}>
                    <dt className={s.fieldName}>{c.head}</dt>
                    <dd className={s.fieldValue}>{c.cell(item)}</dd>
                  </Fragment>
                ))}
              </dl>
              {item.status === ChargeStatus.values.PENDING && <div className={s.cardActions}>{action(item)}</div>}
            </li>
          ))}
        </ul>
      )}
      {data && items.length === 0 && <p className={ui.empty}>{t.historyEmpty}</p>}
      {error && !data && <p className={ui.empty}>{t.failed}</p>}
      <Pager page={page} hasNext={data?.hasNext ?? false} onPage={setPage} label={t.history} />
      <ConfirmDialog
        open={target !== null}
        onOpenChange={(open) => !open && setTarget(null)}
        title={t.cancelTitle}
        description={target ? t.cancelBody(won(target.pointDeci)) : ''}
        confirmLabel={t.cancelConfirm}
        tone="danger"
        busy={busy}
        onConfirm={() => void cancel()}
      />
    </section>
  );
}
