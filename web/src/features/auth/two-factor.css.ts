import { style } from '@vanilla-extract/css';
import { tokens, vars } from '../../theme/contract.css.ts';

/** The second-factor step of the sign-in card (issue 41). */
export const secretBox = style({
  fontFamily: tokens.mono,
  fontSize: 17,
  letterSpacing: '0.08em',
  padding: '14px 16px',
  borderRadius: tokens.radius.sm,
  background: vars.color.surfaceAlt,
  border: `1px solid ${vars.color.border}`,
  wordBreak: 'break-all',
  userSelect: 'all',
});
export const steps = style({ margin: 0, paddingLeft: 20, display: 'flex', flexDirection: 'column', gap: 6, fontSize: 14, lineHeight: 1.6 });
export const codeInput = style({ fontFamily: tokens.mono, fontSize: 22, letterSpacing: '0.3em', textAlign: 'center', selectors: { '&::placeholder': { letterSpacing: 'normal', fontSize: 16, fontFamily: 'inherit' } } });
export const codes = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
  gap: 8,
  margin: 0,
  padding: 0,
  listStyle: 'none',
  fontFamily: tokens.mono,
  fontSize: 15,
  '@media': { 'screen and (max-width: 380px)': { gridTemplateColumns: '1fr' } },
});
export const code = style({ padding: '8px 10px', borderRadius: tokens.radius.sm, background: vars.color.surfaceAlt, border: `1px solid ${vars.color.border}`, textAlign: 'center' });
export const switchLink = style({ background: 'none', border: 'none', padding: 0, color: vars.color.primaryInk, fontWeight: 600, fontSize: 14, cursor: 'pointer', textDecoration: 'underline' });
