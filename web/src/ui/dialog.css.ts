import { keyframes, style } from '@vanilla-extract/css';
import { tokens, vars } from '../theme/contract.css.ts';

const fade = keyframes({ from: { opacity: 0 }, to: { opacity: 1 } });
const rise = keyframes({ from: { opacity: 0, transform: 'translate(-50%, -46%) scale(.98)' }, to: { opacity: 1, transform: 'translate(-50%, -50%)' } });
export const overlay = style({ position: 'fixed', inset: 0, background: vars.color.overlay, zIndex: 500, animation: `${fade} .15s ease-out` });
export const content = style({
  position: 'fixed',
  top: '50%',
  left: '50%',
  transform: 'translate(-50%, -50%)',
  width: 'min(92vw, 440px)',
  background: vars.color.surface,
  borderRadius: tokens.radius.lg,
  boxShadow: vars.shadow.pop,
  padding: 28,
  zIndex: 501,
  display: 'flex',
  flexDirection: 'column',
  gap: 12,
  animation: `${rise} .18s ease-out`,
});
export const title = style({ fontSize: 19, fontWeight: 800 });
export const description = style({ color: vars.color.textMuted, fontSize: 15, lineHeight: 1.7 });
export const actions = style({ display: 'flex', gap: 8, justifyContent: 'flex-end', marginTop: 8 });
