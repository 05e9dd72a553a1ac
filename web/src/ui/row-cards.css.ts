import { style } from '@vanilla-extract/css';
import { tokens, vars } from '../theme/contract.css.ts';
import { narrowScreen as narrow } from './breakpoint.ts';

/**
 * A list shown as a table from 880 px up and as a card per row below it (spec §1: no sideways
 * scrolling on a phone): the order histories and the top-up history share these.
 */
export const tableView = style({ '@media': { [narrow]: { display: 'none' } } });
export const cardView = style({ display: 'none', listStyle: 'none', margin: 0, padding: 0, '@media': { [narrow]: { display: 'flex', flexDirection: 'column', gap: 12 } } });

export const card = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: tokens.radius.md,
  background: vars.color.surface,
  padding: '12px 14px',
  display: 'flex',
  flexDirection: 'column',
  gap: 10,
});
export const cardHead = style({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8, fontWeight: 700 });
export const fields = style({ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 12, rowGap: 6, margin: 0, fontSize: 14 });
export const fieldName = style({ color: vars.color.textMuted, fontSize: 13 });
export const fieldValue = style({ margin: 0, minWidth: 0, overflowWrap: 'anywhere', textAlign: 'right', fontVariantNumeric: 'tabular-nums' });
export const cardActions = style({ display: 'flex', justifyContent: 'flex-end', gap: 8, flexWrap: 'wrap' });
