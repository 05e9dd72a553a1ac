import type { ProfitReportBody, ProfitRow } from '@smm/contracts/http';
import { type FormEvent, useId, useState } from 'react';
import useSWR from 'swr';
import { messageOf } from '../../../lib/api.ts';
import { count, won } from '../../../lib/format.ts';
import * as ui from '../../../ui/ui.css.ts';
import * as s from '../admin.css.ts';
import { ConsoleTable } from '../ConsoleTable.tsx';
import { profitText as t } from './messages.ts';
import * as p from './profit.css.ts';
import { ProfitChart } from './ProfitChart.tsx';

type By = ProfitReportBody['by'];
const groupings: By[] = ['day', 'week', 'month', 'product', 'provider', 'member'];
const kstToday = (offsetDays = 0) => new Date(Date.now() + 9 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
const timeline = (by: By) => by === 'day' || by === 'week' || by === 'month';

/** "12.3%" of profit over revenue; a dash without revenue. */
const margin = (row: Pick<ProfitRow, 'profitDeci' | 'revenueDeci'>) => (row.revenueDeci === 0 ? '—' : `${((row.profitDeci / row.revenueDeci) * 100).toFixed(1)}%`);

/** Issue 41: revenue, provider cost and profit for any KST date range, by period, product, provider or member (admins). */
export default function ProfitPage() {
  const ids = { from: useId(), to: useId(), by: useId() };
  const [draft, setDraft] = useState({ from: kstToday(-29), to: kstToday(), by: 'day' as By });
  const [shown, setShown] = useState(draft);
  const key = `/admin/reports/profit?${new URLSearchParams(shown).toString()}`;
  const report = useSWR<ProfitReportBody>(key, { keepPreviousData: true });
  const data = report.data;
  const rows = data?.rows ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShown(draft);
  };
  const labelOf = (row: ProfitRow) => (data && timeline(data.by) ? row.key : row.label);
  const chartRows = data && timeline(data.by) ? rows : rows.slice(0, 12);
  const uncosted = data ? data.totals.forwarded - data.totals.costed : 0;
  return (
    <>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.title}</h1>
        <p className={ui.pageLead}>{t.lead}</p>
      </header>
      <section className={ui.card}>
        <form className={p.controls} onSubmit={submit} aria-label={t.title}>
          <span className={p.field}>
            <label htmlFor={ids.from} className={p.fieldLabel}>
              {t.from}
            </label>
            <input id={ids.from} type="date" className={`${ui.input} ${s.searchInput}`} style={{ width: 160, maxWidth: '100%' }} value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
          </span>
          <span className={p.field}>
            <label htmlFor={ids.to} className={p.fieldLabel}>
              {t.to}
            </label>
            <input id={ids.to} type="date" className={`${ui.input} ${s.searchInput}`} style={{ width: 160, maxWidth: '100%' }} value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
          </span>
          <span className={p.field}>
            <label htmlFor={ids.by} className={p.fieldLabel}>
              {t.by}
            </label>
            <select id={ids.by} className={`${ui.input} ${s.searchInput}`} style={{ width: 130, maxWidth: '100%' }} value={draft.by} onChange={(e) => setDraft({ ...draft, by: e.target.value as By })}>
              {groupings.map((g) => (
                <option key={g} value={g}>
                  {t.groupings[g]}
                </option>
              ))}
            </select>
          </span>
          <button type="submit" className={`${ui.button.secondary} ${ui.small}`}>
            {t.show}
          </button>
        </form>
      </section>
      {report.error && (
        <div className={ui.empty} role="alert">
          {messageOf(report.error, t.loadFailed)}
        </div>
      )}
      {data && (
        <>
          <section className={ui.card} aria-label={t.total}>
            <div className={p.figures} data-testid="profit-totals">
              {(
                [
                  [t.revenue, data.totals.revenueDeci],
                  [t.cost, data.totals.costDeci],
                  [t.profit, data.totals.profitDeci],
                ] as const
              ).map(([label, deci]) => (
                <span key={label} className={p.figure}>
                  <span className={p.figureLabel}>{label}</span>
                  <span className={`${p.figureValue} ${deci < 0 ? p.negative : ''}`}>{won(deci)}</span>
                </span>
              ))}
              <span className={p.figure}>
                <span className={p.figureLabel}>{t.columns.margin}</span>
                <span className={p.figureValue}>{margin(data.totals)}</span>
              </span>
            </div>
          </section>
          <section className={ui.card} aria-labelledby="profit-chart-heading">
            <h2 id="profit-chart-heading" className={ui.cardTitle}>
              {t.chartTitle} · {t.groupings[data.by]}
            </h2>
            <ProfitChart rows={chartRows} labelOf={labelOf} />
          </section>
          <ConsoleTable
            label={t.title}
            list={report}
            rows={rows.length}
            columns={[t.columns.key, { label: t.columns.orders, num: true }, { label: t.columns.charged, num: true }, { label: t.columns.refunded, num: true }, { label: t.columns.revenue, num: true }, { label: t.columns.forwarded, num: true }, { label: t.columns.cost, num: true }, { label: t.columns.profit, num: true }, { label: t.columns.margin, num: true }]}
            emptyText={t.empty}
            failedText={t.loadFailed}
            notes={
              <>
                {uncosted > 0 && <p className={p.note}>{t.uncosted(uncosted)}</p>}
                {data.by === 'provider' && <p className={p.note}>{t.providerNote}</p>}
                {data.by === 'week' && <p className={p.note}>{t.weekNote}</p>}
              </>
            }
          >
            {rows.map((r) => (
              <tr key={r.key} data-testid="profit-row">
                <td className={ui.td}>{labelOf(r)}</td>
                <td className={`${ui.td} ${ui.num}`}>{count(r.orders)}</td>
                <td className={`${ui.td} ${ui.num}`}>{won(r.chargedDeci)}</td>
                <td className={`${ui.td} ${ui.num}`}>{won(r.refundedDeci)}</td>
                <td className={`${ui.td} ${ui.num}`}>{won(r.revenueDeci)}</td>
                <td className={`${ui.td} ${ui.num}`}>{count(r.forwarded)}</td>
                <td className={`${ui.td} ${ui.num}`}>{won(r.costDeci)}</td>
                <td className={`${ui.td} ${ui.num} ${r.profitDeci < 0 ? p.negative : ''}`}>{won(r.profitDeci)}</td>
                <td className={`${ui.td} ${ui.num}`}>{margin(r)}</td>
              </tr>
            ))}
            {rows.length > 0 && (
              <tr className={p.totalRow} data-testid="profit-total-row">
                <td className={ui.td}>{t.total}</td>
                <td className={`${ui.td} ${ui.num}`}>{count(data.totals.orders)}</td>
                <td className={`${ui.td} ${ui.num}`}>{won(data.totals.chargedDeci)}</td>
                <td className={`${ui.td} ${ui.num}`}>{won(data.totals.refundedDeci)}</td>
                <td className={`${ui.td} ${ui.num}`}>{won(data.totals.revenueDeci)}</td>
                <td className={`${ui.td} ${ui.num}`}>{count(data.totals.forwarded)}</td>
                <td className={`${ui.td} ${ui.num}`}>{won(data.totals.costDeci)}</td>
                <td className={`${ui.td} ${ui.num} ${data.totals.profitDeci < 0 ? p.negative : ''}`}>{won(data.totals.profitDeci)}</td>
                <td className={`${ui.td} ${ui.num}`}>{margin(data.totals)}</td>
              </tr>
            )}
          </ConsoleTable>
        </>
      )}
    </>
  );
}
