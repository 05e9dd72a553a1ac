import type { ProfitRow } from '@smm/contracts/http';
import { won } from '../../../lib/format.ts';
import * as s from '../admin.css.ts';
import * as p from './profit.css.ts';
import { profitText as t } from './messages.ts';

const width = 720;
const height = 260;
const top = 16;
const bottom = 34;
const left = 8;

/**
 * Revenue and cost as paired bars per group, profit as a line over them (inline SVG drawn by hand:
 * a few dozen bars and one line do not need a chart library). Scaled from the lowest profit (or 0)
 * to the highest figure; every group's figures are in its bars' titles and in the description.
 */
export function ProfitChart({ rows, labelOf }: { rows: ProfitRow[]; labelOf: (row: ProfitRow) => string }) {
  const high = Math.max(1, ...rows.map((r) => Math.max(r.revenueDeci, r.costDeci, r.profitDeci)));
  const low = Math.min(0, ...rows.map((r) => r.profitDeci));
  const plot = height - top - bottom;
  const y = (deci: number) => top + ((high - deci) / (high - low)) * plot;
  const slot = (width - left * 2) / Math.max(1, rows.length);
  const bar = Math.max(1.5, Math.min(22, slot / 2.6));
  const every = Math.ceil(rows.length / 12); // at most 12 labels under the axis
  const line = rows.map((r, i) => `${i === 0 ? 'M' : 'L'}${(left + i * slot + slot / 2).toFixed(1)},${y(r.profitDeci).toFixed(1)}`).join(' ');
  const describe = (r: ProfitRow) => t.chartRow(labelOf(r), won(r.revenueDeci), won(r.costDeci), won(r.profitDeci));
  return (
    <figure className={s.chartFigure}>
      <svg viewBox={`0 0 ${width} ${height}`} className={s.chart} role="img" aria-labelledby="profit-chart-title profit-chart-desc" data-testid="profit-chart">
        <title id="profit-chart-title">{t.chartTitle}</title>
        <desc id="profit-chart-desc">{t.chartDesc(rows.map(describe).join('; '))}</desc>
        <line x1={left} x2={width - left} y1={y(0)} y2={y(0)} className={low < 0 ? p.chartZero : s.chartAxis} />
        {rows.map((r, i) => {
          const x = left + i * slot + slot / 2;
          const h = (deci: number) => Math.max(0, y(0) - y(Math.max(0, deci)));
          return (
            <g key={r.key}>
              <rect x={x - bar - 1} y={y(Math.max(0, r.revenueDeci))} width={bar} height={h(r.revenueDeci)} rx={2} className={p.chartRevenue}>
                <title>{describe(r)}</title>
              </rect>
              <rect x={x + 1} y={y(Math.max(0, r.costDeci))} width={bar} height={h(r.costDeci)} rx={2} className={p.chartCost}>
                <title>{describe(r)}</title>
              </rect>
              {i % every === 0 && (
                <text x={x} y={height - 12} textAnchor="middle" className={s.chartLabel}>
                  {shortLabel(labelOf(r))}
                </text>
              )}
            </g>
          );
        })}
        {rows.length > 1 && <path d={line} className={p.chartProfit} />}
        {rows.map((r, i) => (
          <circle key={r.key} cx={left + i * slot + slot / 2} cy={y(r.profitDeci)} r={rows.length > 40 ? 1.5 : 3} className={p.chartProfitDot}>
            <title>{describe(r)}</title>
          </circle>
        ))}
      </svg>
      <figcaption className={s.legend}>
        <span className={s.legendItem}>
          <span className={`${s.legendSwatch} ${p.chartRevenue}`} aria-hidden="true" />
          {t.revenue}
        </span>
        <span className={s.legendItem}>
          <span className={`${s.legendSwatch} ${p.chartCost}`} aria-hidden="true" />
          {t.cost}
        </span>
        <span className={s.legendItem}>
          <span className={`${s.legendSwatch} ${p.chartProfitDot}`} aria-hidden="true" />
          {t.profit}
        </span>
      </figcaption>
    </figure>
  );
}

/** "12.05" for a day, "2026.12" for a month, else the first 8 characters. */
function shortLabel(label: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(label)) return label.slice(5).replace('-', '.');
  if (/^\d{4}-\d{2}$/.test(label)) return label.replace('-', '.');
  return label.length > 8 ? `${label.slice(0, 7)}…` : label;
}
