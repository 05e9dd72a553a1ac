import { won } from '../../../lib/format.ts';
import * as s from '../admin.css.ts';
import { adminText as t } from '../messages.ts';
import type { MoneyDay } from './types.ts';

const width = 640;
const height = 220;
const top = 16;
const bottom = 32;
const left = 8;

/**
 * The last 7 days' sales and refunds as paired bars (inline SVG, no chart library: seven pairs do
 * not need one). Scaled to the largest day; the figures are in the title of each bar and in the
 * description for screen readers.
 */
export function WeekChart({ days }: { days: MoneyDay[] }) {
  const max = Math.max(1, ...days.map((d) => Math.max(d.salesDeci, d.refundsDeci)));
  const slot = (width - left * 2) / days.length;
  const bar = Math.min(28, slot / 3);
  const plot = height - top - bottom;
  const h = (deci: number) => (deci <= 0 ? 0 : Math.max(2, (deci / max) * plot));
  return (
    <figure className={s.chartFigure}>
      <svg viewBox={`0 0 ${width} ${height}`} className={s.chart} role="img" aria-labelledby="week-chart-title week-chart-desc" data-testid="week-chart">
        <title id="week-chart-title">{t.chartTitle}</title>
        <desc id="week-chart-desc">{t.chartDesc(days.map((d) => t.chartDay(d.date, won(d.salesDeci), won(d.refundsDeci))).join('; '))}</desc>
        <line x1={left} x2={width - left} y1={top + plot} y2={top + plot} className={s.chartAxis} />
        {days.map((d, i) => {
          const x = left + i * slot + slot / 2;
          return (
            <g key={d.date}>
              <rect x={x - bar - 2} y={top + plot - h(d.salesDeci)} width={bar} height={h(d.salesDeci)} rx={4} className={s.chartSales}>
                <title>{t.chartDay(d.date, won(d.salesDeci), won(d.refundsDeci))}</title>
              </rect>
              <rect x={x + 2} y={top + plot - h(d.refundsDeci)} width={bar} height={h(d.refundsDeci)} rx={4} className={s.chartRefunds}>
                <title>{t.chartDay(d.date, won(d.salesDeci), won(d.refundsDeci))}</title>
              </rect>
              <text x={x} y={height - 10} textAnchor="middle" className={s.chartLabel}>
                {d.date.slice(5).replace('-', '.')}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className={s.legend}>
        <span className={s.legendItem}>
          <span className={`${s.legendSwatch} ${s.chartSales}`} aria-hidden="true" />
          {t.sales}
        </span>
        <span className={s.legendItem}>
          <span className={`${s.legendSwatch} ${s.chartRefunds}`} aria-hidden="true" />
          {t.refunds}
        </span>
      </figcaption>
    </figure>
  );
}
