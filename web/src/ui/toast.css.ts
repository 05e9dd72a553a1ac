import { keyframes, style, styleVariants } from '@vanilla-extract/css';
import { tokens, vars } from '../theme/contract.css.ts';

const enter = keyframes({ from: { opacity: 0, transform: 'translateY(-8px)' }, to: { opacity: 1, transform: 'none' } });

export const region = style({
  position: 'fixed',
  top: 16,
  left: '50%',
  transform: 'translateX(-50%)',
  zIndex: 1000,
  display: 'flex',
  flexDirection: 'column',
  gap: 8,
  alignItems: 'center',
  pointerEvents: 'none',
  width: 'min(92vw, 420px)',
});
const base = style({
  display: 'flex',
  alignItems: 'center',
  gap: 10,
  padding: '12px 18px',
  borderRadius: tokens.radius.md,
  background: vars.color.surface,
  color: vars.color.text,
  boxShadow: vars.shadow.pop,
  border: `1px solid ${vars.color.border}`,
  fontSize: 14,
  fontWeight: 600,
  animation: `${enter} .18s ease-out`,
  pointerEvents: 'auto',
});
export const toast = styleVariants({
  success: [base, { borderLeft: `4px solid ${vars.color.success}` }],
  error: [base, { borderLeft: `4px solid ${vars.color.danger}` }],
  info: [base, { borderLeft: `4px solid ${vars.color.primary}` }],
});
export const dot = style({ display: 'none' });
