import { style } from '@vanilla-extract/css';
import { tokens, vars } from '../../theme/contract.css.ts';

export const layout = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1.3fr) minmax(0, 1fr)',
  gap: 20,
  alignItems: 'start',
  '@media': { 'screen and (max-width: 1200px)': { gridTemplateColumns: 'minmax(0, 1fr)' } },
});
export const amountBox = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: 12,
  padding: '16px 18px',
  borderRadius: tokens.radius.md,
  background: vars.color.surfaceAlt,
  border: `1px solid ${vars.color.border}`,
});
export const amount = style({ fontSize: 30, fontWeight: 800, letterSpacing: '-0.02em', fontVariantNumeric: 'tabular-nums' });
export const quick = style({ display: 'grid', gridTemplateColumns: 'repeat(4, minmax(0, 1fr))', gap: 8, '@media': { 'screen and (max-width: 520px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } } });
export const radios = style({ display: 'flex', gap: 8, flexWrap: 'wrap' });
export const radio = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: 8,
  padding: '10px 14px',
  borderRadius: tokens.radius.md,
  border: `1px solid ${vars.color.borderStrong}`,
  cursor: 'pointer',
  fontSize: 14,
  fontWeight: 600,
  selectors: { '&:has(input:checked)': { borderColor: vars.color.primary, background: vars.color.primarySoft, color: vars.color.primaryInk } },
});
export const receipt = style({ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 12, padding: 14, borderRadius: tokens.radius.md, border: `1px dashed ${vars.color.borderStrong}`, '@media': { 'screen and (max-width: 640px)': { gridTemplateColumns: '1fr' } } });
export const fee = style({ padding: '10px 12px', borderRadius: tokens.radius.sm, background: vars.color.warningSoft, color: vars.color.warning, fontSize: 14, fontWeight: 600 });
export const infoList = style({ margin: 0, paddingLeft: 18, display: 'grid', gap: 6, color: vars.color.textMuted, fontSize: 14 });
export const dl = style({ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '12px 20px', margin: 0, fontSize: 15 });
export const dt = style({ color: vars.color.textMuted });
export const dd = style({ margin: 0, fontWeight: 700, display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' });
export const big = style({ fontSize: 26, fontWeight: 800, color: vars.color.primaryInk, fontVariantNumeric: 'tabular-nums' });
export const doneIcon = style({ width: 48, height: 48, borderRadius: '50%', background: vars.color.successSoft, color: vars.color.success, display: 'grid', placeItems: 'center' });
export const toss = style({ background: '#0064FF', color: '#fff' });

/**
 * Top-up history (issue 40): a table from 880 px up, a card per request below (no sideways
 * scrolling on a phone) — the order histories' cards, one set of styles for both.
 */
export { cardActions, cardHead, cardView, fieldName, fieldValue, fields, card as historyCard, tableView } from '../../ui/row-cards.css.ts';
export const reason = style({ fontSize: 13, color: vars.color.textMuted, whiteSpace: 'normal', overflowWrap: 'anywhere' });
