import { style } from '@vanilla-extract/css';
import { tokens, vars } from '../../theme/contract.css.ts';

export const wrap = style({ display: 'grid', placeItems: 'start center', padding: '48px 16px 64px', '@media': { 'screen and (max-width: 880px)': { padding: '24px 12px 48px' } } });
export const card = style({
  width: '100%',
  maxWidth: 460,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: tokens.radius.lg,
  boxShadow: vars.shadow.card,
  padding: '36px 32px',
  display: 'flex',
  flexDirection: 'column',
  gap: 20,
  '@media': { 'screen and (max-width: 880px)': { padding: '28px 20px' } },
});
export const title = style({ fontSize: 26, fontWeight: 800, letterSpacing: '-0.02em' });
export const lead = style({ color: vars.color.textMuted, fontSize: 14, marginTop: 4 });
export const form = style({ display: 'flex', flexDirection: 'column', gap: 16 });
export const divider = style({
  display: 'flex',
  alignItems: 'center',
  gap: 12,
  color: vars.color.textMuted,
  fontSize: 13,
  selectors: { '&::before, &::after': { content: '""', flex: 1, borderTop: `1px solid ${vars.color.border}` } },
});
export const naver = style({ background: '#03C75A', color: '#fff', border: 'none' });
export const kakao = style({ background: '#FEE500', color: '#191600', border: 'none' });
export const foot = style({ textAlign: 'center', fontSize: 14, color: vars.color.textMuted });
export const inline = style({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto', gap: 8 });
export const formError = style({ padding: '10px 12px', borderRadius: tokens.radius.sm, background: vars.color.dangerSoft, color: vars.color.danger, fontSize: 14, fontWeight: 600 });
