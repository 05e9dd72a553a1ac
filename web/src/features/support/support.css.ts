import { style } from '@vanilla-extract/css';
import { tokens, vars } from '../../theme/contract.css.ts';

export const list = style({ display: 'flex', flexDirection: 'column', gap: 10, listStyle: 'none', margin: 0, padding: 0 });
export const item = style({
  display: 'flex',
  flexDirection: 'column',
  gap: 6,
  padding: '14px 16px',
  borderRadius: tokens.radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.text,
  textDecoration: 'none',
  selectors: { '&:hover': { borderColor: vars.color.primary } },
});
export const itemTop = style({ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' });
export const itemTitle = style({ fontWeight: 700, fontSize: 15, overflowWrap: 'anywhere', flex: '1 1 200px' });
export const meta = style({ display: 'flex', gap: 12, flexWrap: 'wrap', fontSize: 13, color: vars.color.textMuted });
export const dot = style({ width: 8, height: 8, borderRadius: '50%', background: vars.color.danger, display: 'inline-block', flex: 'none' });

export const formGrid = style({ display: 'grid', gridTemplateColumns: '180px 1fr', gap: 16, '@media': { 'screen and (max-width: 600px)': { gridTemplateColumns: '1fr' } } });
export const counter = style({ fontSize: 12, color: vars.color.textMuted, alignSelf: 'flex-end' });
export const actions = style({ display: 'flex', gap: 8, justifyContent: 'flex-end', flexWrap: 'wrap' });
