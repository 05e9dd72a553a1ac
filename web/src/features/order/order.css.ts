import { keyframes, style } from '@vanilla-extract/css';
import { tokens, vars } from '../../theme/contract.css.ts';

export const layout = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr) 340px',
  gap: 20,
  alignItems: 'start',
  '@media': { 'screen and (max-width: 1200px)': { gridTemplateColumns: 'minmax(0, 1fr)' } },
});
export const column = style({ display: 'flex', flexDirection: 'column', gap: 20, minWidth: 0 });
export const summary = style({ position: 'sticky', top: 120, display: 'flex', flexDirection: 'column', gap: 16 });

// Spec §2: the notice panel is a 120 px scrollable list; it keeps that height while loading.
export const noticeBox = style({
  height: 120,
  flexShrink: 0,
  boxSizing: 'border-box',
  overflowY: 'auto',
  display: 'flex',
  flexDirection: 'column',
  gap: 6,
  paddingRight: 4,
});
export const notice = style({ padding: '8px 12px', borderRadius: tokens.radius.sm, fontSize: 14, lineHeight: 1.55, background: vars.color.surfaceAlt });
export const noticeTop = style([notice, { background: vars.color.noticeSoft, color: vars.color.notice, fontWeight: 700 }]);

export const grid = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(112px, 1fr))',
  gap: 10,
  '@media': { 'screen and (max-width: 880px)': { gridTemplateColumns: 'repeat(auto-fill, minmax(84px, 1fr))', gap: 8 } },
});
export const platform = style({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: 8,
  padding: '14px 8px 12px',
  borderRadius: tokens.radius.md,
  border: `1.5px solid ${vars.color.border}`,
  background: vars.color.surface,
  cursor: 'pointer',
  fontWeight: 700,
  fontSize: 14,
  wordBreak: 'keep-all',
  textAlign: 'center',
  lineHeight: 1.3,
  transition: 'border-color .15s, transform .15s, box-shadow .15s',
  '@media': { 'screen and (max-width: 880px)': { padding: '10px 4px', fontSize: 12 } },
  selectors: {
    '&:hover': { borderColor: vars.color.borderStrong, transform: 'translateY(-1px)' },
    '&[aria-pressed="true"]': { borderColor: vars.color.primary, boxShadow: `0 0 0 3px ${vars.color.primarySoft}` },
  },
});
export const platformIcon = style({ width: 44, height: 44, borderRadius: 12, display: 'grid', placeItems: 'center' });

/** Placeholders the size of what they stand for, shown while the catalogue loads (no layout shift). */
const shimmer = keyframes({ '0%': { opacity: 0.55 }, '50%': { opacity: 1 }, '100%': { opacity: 0.55 } });
const skeletonFill = { background: vars.color.surfaceAlt, animation: `${shimmer} 1.4s ease-in-out infinite` };
export const platformSkeleton = style([platform, { cursor: 'default', pointerEvents: 'none', selectors: { '&:hover': { borderColor: vars.color.border, transform: 'none' } } }]);
export const skeletonIcon = style([platformIcon, skeletonFill]);
/** One line of platform-name text (14 px × 1.3, 12 px on phones). */
export const skeletonText = style([
  skeletonFill,
  { width: '60%', height: 18, borderRadius: 4, '@media': { 'screen and (max-width: 880px)': { height: 16 } } },
]);
export const noticeSkeleton = style([skeletonFill, { height: 38, borderRadius: tokens.radius.sm, flexShrink: 0 }]);

export const steps = style({ display: 'flex', flexDirection: 'column', gap: 22 });
export const step = style({ display: 'grid', gridTemplateColumns: '32px minmax(0, 1fr)', gap: 12, alignItems: 'start' });
export const stepNo = style({
  width: 28,
  height: 28,
  marginTop: 1,
  borderRadius: '50%',
  background: vars.color.primarySoft,
  color: vars.color.primaryInk,
  fontWeight: 800,
  fontSize: 13,
  display: 'grid',
  placeItems: 'center',
});
export const productNotice = style({
  padding: '12px 14px',
  borderRadius: tokens.radius.md,
  background: vars.color.surfaceAlt,
  fontSize: 14,
  lineHeight: 1.7,
  whiteSpace: 'pre-wrap',
  color: vars.color.text,
});
export const autoBox = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(3, minmax(0, 1fr))',
  gap: 12,
  padding: 14,
  marginTop: 10,
  borderRadius: tokens.radius.md,
  border: `1px dashed ${vars.color.borderStrong}`,
  '@media': { 'screen and (max-width: 880px)': { gridTemplateColumns: '1fr' } },
});
export const summaryRow = style({ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: 12, fontSize: 14, color: vars.color.textMuted });
export const summaryValue = style({ color: vars.color.text, fontWeight: 700, fontVariantNumeric: 'tabular-nums' });
export const total = style({ fontSize: 28, fontWeight: 800, color: vars.color.primaryInk, letterSpacing: '-0.02em', fontVariantNumeric: 'tabular-nums' });
export const problem = style({
  padding: '10px 12px',
  borderRadius: tokens.radius.sm,
  background: vars.color.dangerSoft,
  color: vars.color.danger,
  fontSize: 14,
  fontWeight: 600,
});
export const warn = style({
  padding: '10px 12px',
  borderRadius: tokens.radius.sm,
  background: vars.color.warningSoft,
  color: vars.color.warning,
  fontSize: 14,
  fontWeight: 600,
});
