import { style } from '@vanilla-extract/css';
import { vars } from '../../../theme/contract.css.ts';

/** The profit screen's own pieces (issue 41); cards, table and filters are the console's. */
export const field = style({ display: 'flex', flexDirection: 'column', gap: 4 });
export const fieldLabel = style({ fontSize: 12, fontWeight: 700, color: vars.color.textMuted });
export const controls = style({ display: 'flex', flexWrap: 'wrap', gap: 10, alignItems: 'flex-end' });
export const chartRevenue = style({ fill: vars.color.primary, background: vars.color.primary });
export const chartCost = style({ fill: vars.color.warning, background: vars.color.warning });
export const chartProfit = style({ stroke: vars.color.success, fill: 'none', strokeWidth: 2.5 });
export const chartProfitDot = style({ fill: vars.color.success, background: vars.color.success });
export const chartZero = style({ stroke: vars.color.textMuted, strokeWidth: 1, strokeDasharray: '4 4' });
export const negative = style({ color: vars.color.danger, fontWeight: 700 });
export const totalRow = style({ fontWeight: 800, background: vars.color.surfaceAlt });
export const note = style({ fontSize: 13, color: vars.color.textMuted, marginTop: 10, lineHeight: 1.5 });
export const sortButton = style({
  background: 'none',
  border: 0,
  padding: 0,
  font: 'inherit',
  color: 'inherit',
  cursor: 'pointer',
  fontWeight: 'inherit',
  selectors: { '&[aria-pressed="true"]': { color: vars.color.primaryInk, textDecoration: 'underline' } },
});
export const figures = style({ display: 'grid', gridTemplateColumns: 'repeat(4, minmax(0, 1fr))', gap: 12, '@media': { 'screen and (max-width: 720px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } } });
export const figure = style({ display: 'flex', flexDirection: 'column', gap: 4 });
export const figureLabel = style({ fontSize: 12, fontWeight: 700, color: vars.color.textMuted });
export const figureValue = style({ fontSize: 20, fontWeight: 800, fontVariantNumeric: 'tabular-nums' });
