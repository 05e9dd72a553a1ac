import { style, styleVariants } from '@vanilla-extract/css';
import { tokens, vars } from '../theme/contract.css.ts';

export const page = style({
  maxWidth: 1120,
  margin: '0 auto',
  padding: '28px 20px 64px',
  display: 'flex',
  flexDirection: 'column',
  gap: 20,
  '@media': { 'screen and (max-width: 880px)': { padding: '18px 14px 48px', gap: 14 } },
});

export const pageHeader = style({ display: 'flex', flexDirection: 'column', gap: 4 });
export const pageTitle = style({ fontSize: 24, fontWeight: 800, letterSpacing: '-0.02em' });
export const pageLead = style({ color: vars.color.textMuted, fontSize: 14 });

export const card = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: tokens.radius.lg,
  boxShadow: vars.shadow.card,
  padding: 24,
  '@media': { 'screen and (max-width: 880px)': { padding: 16 } },
});
export const cardTitle = style({ fontSize: 17, fontWeight: 700, marginBottom: 14, display: 'flex', alignItems: 'center', gap: 8 });

const buttonBase = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: 6,
  minHeight: 44,
  padding: '0 18px',
  borderRadius: tokens.radius.md,
  border: '1px solid transparent',
  fontWeight: 700,
  fontSize: 15,
  cursor: 'pointer',
  textDecoration: 'none',
  whiteSpace: 'nowrap',
  transition: 'background .15s, border-color .15s, opacity .15s',
  selectors: { '&:disabled, &[aria-disabled="true"]': { opacity: 0.45, cursor: 'not-allowed' } },
});

export const button = styleVariants({
  primary: [buttonBase, { background: vars.color.primary, color: vars.color.primaryText, selectors: { '&:hover:not(:disabled)': { filter: 'brightness(1.08)' } } }],
  secondary: [buttonBase, { background: vars.color.surface, color: vars.color.text, borderColor: vars.color.borderStrong, selectors: { '&:hover:not(:disabled)': { background: vars.color.surfaceAlt } } }],
  soft: [buttonBase, { background: vars.color.primarySoft, color: vars.color.primaryInk, selectors: { '&:hover:not(:disabled)': { filter: 'brightness(0.97)' } } }],
  ghost: [buttonBase, { background: 'transparent', color: vars.color.textMuted, selectors: { '&:hover:not(:disabled)': { background: vars.color.surfaceAlt, color: vars.color.text } } }],
  danger: [buttonBase, { background: vars.color.dangerSoft, color: vars.color.danger, selectors: { '&:hover:not(:disabled)': { filter: 'brightness(0.96)' } } }],
});
export const small = style({ minHeight: 34, padding: '0 12px', fontSize: 13, borderRadius: tokens.radius.sm });
export const block = style({ width: '100%' });

export const field = style({ display: 'flex', flexDirection: 'column', gap: 6 });
export const label = style({ fontSize: 14, fontWeight: 700, color: vars.color.text });
export const hint = style({ fontSize: 13, color: vars.color.textMuted });
export const errorText = style({ fontSize: 13, color: vars.color.danger, fontWeight: 600 });

export const input = style({
  width: '100%',
  minHeight: 46,
  padding: '10px 14px',
  borderRadius: tokens.radius.md,
  border: `1px solid ${vars.color.borderStrong}`,
  background: vars.color.surface,
  fontSize: 15,
  outline: 'none',
  selectors: {
    '&:focus': { borderColor: vars.color.primary, boxShadow: `0 0 0 3px ${vars.color.primarySoft}` },
    '&:disabled, &[readonly]': { background: vars.color.surfaceAlt, color: vars.color.textMuted },
    '&[aria-invalid="true"]': { borderColor: vars.color.danger },
  },
});
export const textarea = style([input, { minHeight: 96, resize: 'vertical', lineHeight: 1.6 }]);
export const row = style({ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' });
export const stack = style({ display: 'flex', flexDirection: 'column', gap: 16 });
export const checkbox = style({ display: 'inline-flex', alignItems: 'center', gap: 8, fontSize: 14, cursor: 'pointer', userSelect: 'none' });
export const checkboxInput = style({ width: 18, height: 18, accentColor: vars.color.primary, margin: 0 });

export const tableWrap = style({ overflowX: 'auto', borderRadius: tokens.radius.md, border: `1px solid ${vars.color.border}` });
export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: 14, background: vars.color.surface });
export const th = style({
  textAlign: 'left',
  padding: '11px 12px',
  background: vars.color.surfaceAlt,
  color: vars.color.textMuted,
  fontWeight: 700,
  fontSize: 13,
  whiteSpace: 'nowrap',
  borderBottom: `1px solid ${vars.color.border}`,
});
export const td = style({ padding: '12px 12px', borderBottom: `1px solid ${vars.color.border}`, verticalAlign: 'middle', whiteSpace: 'nowrap' });
export const tdWrap = style([td, { whiteSpace: 'normal', minWidth: 140, maxWidth: 260 }]);
export const ellipsis = style({ display: 'inline-block', maxWidth: 200, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', verticalAlign: 'bottom' });
export const wide = style({ maxWidth: 1360 });
export const num = style({ textAlign: 'right', fontVariantNumeric: 'tabular-nums' });
export const empty = style({ padding: '48px 16px', textAlign: 'center', color: vars.color.textMuted });

export const chips = style({ display: 'flex', gap: 8, flexWrap: 'wrap' });
export const chip = style({
  minHeight: 36,
  padding: '0 14px',
  borderRadius: tokens.radius.pill,
  border: `1px solid ${vars.color.borderStrong}`,
  background: vars.color.surface,
  color: vars.color.textMuted,
  fontWeight: 600,
  fontSize: 14,
  cursor: 'pointer',
  selectors: {
    '&[aria-pressed="true"]': { background: vars.color.primary, color: vars.color.primaryText, borderColor: vars.color.primary },
  },
});

const badgeBase = style({
  display: 'inline-flex',
  alignItems: 'center',
  padding: '2px 10px',
  borderRadius: tokens.radius.pill,
  fontSize: 12,
  fontWeight: 700,
  whiteSpace: 'nowrap',
});
export const badge = styleVariants({
  neutral: [badgeBase, { background: vars.color.surfaceAlt, color: vars.color.textMuted }],
  primary: [badgeBase, { background: vars.color.primarySoft, color: vars.color.primaryInk }],
  success: [badgeBase, { background: vars.color.successSoft, color: vars.color.success }],
  warning: [badgeBase, { background: vars.color.warningSoft, color: vars.color.warning }],
  danger: [badgeBase, { background: vars.color.dangerSoft, color: vars.color.danger }],
});

export const link = style({ color: vars.color.primaryInk, fontWeight: 600, textDecoration: 'none', selectors: { '&:hover': { textDecoration: 'underline' } } });
export const muted = style({ color: vars.color.textMuted });
export const pager = style({ display: 'flex', gap: 8, justifyContent: 'center', alignItems: 'center', marginTop: 16 });
export const callout = style({
  padding: '14px 16px',
  borderRadius: tokens.radius.md,
  background: vars.color.surfaceAlt,
  color: vars.color.textMuted,
  fontSize: 14,
  lineHeight: 1.7,
});
