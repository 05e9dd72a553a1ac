import { style } from '@vanilla-extract/css';
import { tokens, vars } from '../../../theme/contract.css.ts';

/** The staff screen (issue 41). */
export const toolbar = style({ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', justifyContent: 'space-between', margin: '16px 0' });
export const actions = style({ display: 'inline-flex', gap: 6, flexWrap: 'wrap' });
export const form = style({ display: 'flex', flexDirection: 'column', gap: 16, marginTop: 8 });
export const fieldset = style({ border: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 8 });
export const areaGrid = style({ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(130px, 1fr))', gap: 10 });
export const passwordRow = style({ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap', margin: '8px 0' });
export const password = style({
  fontFamily: tokens.mono,
  fontSize: 17,
  padding: '10px 14px',
  borderRadius: tokens.radius.sm,
  background: vars.color.surfaceAlt,
  border: `1px solid ${vars.color.border}`,
  userSelect: 'all',
});
