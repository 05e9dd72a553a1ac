import { keyframes, style } from '@vanilla-extract/css';
import { vars } from '../theme/contract.css.ts';

const spin = keyframes({ to: { transform: 'rotate(360deg)' } });
export const overlay = style({
  position: 'fixed',
  inset: 0,
  zIndex: 900,
  display: 'grid',
  placeItems: 'center',
  background: `color-mix(in srgb, ${vars.color.bg} 70%, transparent)`,
  backdropFilter: 'blur(2px)',
});
export const spinner = style({
  width: 44,
  height: 44,
  borderRadius: '50%',
  border: `4px solid ${vars.color.primarySoft}`,
  borderTopColor: vars.color.primary,
  animation: `${spin} .8s linear infinite`,
});
