import { style } from '@vanilla-extract/css';
import { tokens, vars } from '../../theme/contract.css.ts';

export const list = style({ display: 'flex', flexDirection: 'column', gap: 10 });
export const item = style({ background: vars.color.surface, border: `1px solid ${vars.color.border}`, borderRadius: tokens.radius.md, boxShadow: vars.shadow.card, overflow: 'hidden' });
export const heading = style({ margin: 0, fontSize: 16 });
export const question = style({
  width: '100%',
  display: 'flex',
  alignItems: 'center',
  gap: 12,
  padding: '18px 20px',
  background: 'none',
  border: 'none',
  textAlign: 'left',
  fontWeight: 700,
  fontSize: 16,
  cursor: 'pointer',
  selectors: { '&:hover': { background: vars.color.surfaceAlt } },
});
export const q = style({ color: vars.color.primaryInk, fontWeight: 900, fontSize: 18 });
export const chevron = style({ display: 'inline-flex', transition: 'transform .2s', color: vars.color.textMuted, selectors: { '[aria-expanded="true"] > &': { transform: 'rotate(180deg)' } } });
export const answer = style({ padding: '0 20px 20px 50px', color: vars.color.textMuted, lineHeight: 1.8, whiteSpace: 'pre-wrap' });
