import { style, styleVariants } from '@vanilla-extract/css';
import { tokens, vars } from '../../theme/contract.css.ts';

export const layout = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr) 340px',
  gap: 20,
  alignItems: 'start',
  '@media': { 'screen and (max-width: 1200px)': { gridTemplateColumns: 'minmax(0, 1fr)' } },
});
export const column = style({ display: 'flex', flexDirection: 'column', gap: 20, minWidth: 0 });
export const summary = style({ position: 'sticky', top: 120, display: 'flex', flexDirection: 'column', gap: 12, '@media': { 'screen and (max-width: 1200px)': { position: 'static' } } });
export const paste = style({ minHeight: 220, fontFamily: tokens.mono, fontSize: 14, whiteSpace: 'pre', overflowWrap: 'normal', overflowX: 'auto' });
export const countRow = style({ display: 'flex', justifyContent: 'space-between', gap: 8, flexWrap: 'wrap' });

/** One checked (or placed) line: a row on a wide screen, a small card on a phone (it wraps). */
export const lines = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 8, maxHeight: 560, overflowY: 'auto' });
const lineBase = style({
  display: 'grid',
  gridTemplateColumns: '64px minmax(0, 1.4fr) minmax(0, 1.6fr) 90px 110px',
  gap: '4px 12px',
  alignItems: 'center',
  padding: '10px 12px',
  borderRadius: tokens.radius.md,
  border: `1px solid ${vars.color.border}`,
  fontSize: 14,
  '@media': {
    'screen and (max-width: 880px)': { gridTemplateColumns: 'minmax(0, 1fr) auto' },
  },
});
export const line = styleVariants({
  ok: [lineBase, { background: vars.color.surface }],
  bad: [lineBase, { background: vars.color.dangerSoft, borderColor: vars.color.danger }],
});
export const lineNo = style({ fontWeight: 700, color: vars.color.textMuted, whiteSpace: 'nowrap' });
export const cell = style({ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });
/** Service and link: a row each on a phone (the line's number, then them, then quantity and price). */
export const wideCell = style([cell, { '@media': { 'screen and (max-width: 880px)': { gridColumn: '1 / -1', whiteSpace: 'normal', overflowWrap: 'anywhere' } } }]);
export const numCell = style([cell, { textAlign: 'right', fontVariantNumeric: 'tabular-nums' }]);
/** The quantity: left under the link on a phone, with its label. */
export const qtyCell = style([numCell, { '@media': { 'screen and (max-width: 880px)': { textAlign: 'left' } } }]);
export const reason = style({ gridColumn: '1 / -1', fontSize: 13, fontWeight: 600, color: vars.color.danger, whiteSpace: 'normal' });
export const phoneLabel = style({ display: 'none', color: vars.color.textMuted, fontSize: 12, '@media': { 'screen and (max-width: 880px)': { display: 'inline' } } });

export const totals = style({ display: 'flex', flexDirection: 'column', gap: 8, fontSize: 14 });
export const totalRow = style({ display: 'flex', justifyContent: 'space-between', gap: 8, fontVariantNumeric: 'tabular-nums' });
export const totalBig = style({ fontSize: 22, fontWeight: 800 });
export const warn = style({ fontSize: 13, fontWeight: 600, color: vars.color.danger });
export const serviceList = style({ maxHeight: 280, overflowY: 'auto', marginTop: 10 });
export const details = style({ fontSize: 14 });
export const summaryToggle = style({ cursor: 'pointer', fontWeight: 700, color: vars.color.primaryInk });
