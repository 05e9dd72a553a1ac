import { keyframes, style } from '@vanilla-extract/css';
import { tokens, vars } from '../../theme/contract.css.ts';

const narrow = 'screen and (max-width: 880px)';

export const hero = style({
  background: `radial-gradient(1200px 400px at 80% -10%, ${vars.color.primarySoft}, transparent), ${vars.color.surface}`,
  borderBottom: `1px solid ${vars.color.border}`,
});
export const heroInner = style({
  maxWidth: 1120,
  margin: '0 auto',
  padding: '72px 20px 64px',
  display: 'grid',
  gridTemplateColumns: '1.2fr 1fr',
  gap: 40,
  alignItems: 'center',
  '@media': { [narrow]: { gridTemplateColumns: '1fr', padding: '40px 16px 36px', gap: 24 } },
});
export const eyebrow = style({ display: 'inline-block', padding: '4px 12px', borderRadius: tokens.radius.pill, background: vars.color.primarySoft, color: vars.color.primaryInk, fontWeight: 700, fontSize: 13 });
export const headline = style({ fontSize: 44, lineHeight: 1.25, fontWeight: 800, letterSpacing: '-0.035em', margin: '16px 0', whiteSpace: 'pre-line', '@media': { [narrow]: { fontSize: 30 } } });
export const sub = style({ fontSize: 17, color: vars.color.textMuted, maxWidth: 560, lineHeight: 1.75 });
export const actions = style({ display: 'flex', gap: 10, marginTop: 28, flexWrap: 'wrap' });
export const claim = style({
  background: vars.color.primary,
  color: vars.color.primaryText,
  borderRadius: 24,
  padding: 32,
  boxShadow: vars.shadow.pop,
  display: 'flex',
  flexDirection: 'column',
  gap: 12,
});
export const claimNumber = style({ fontSize: 72, fontWeight: 900, lineHeight: 1, letterSpacing: '-0.04em' });
export const claimTitle = style({ fontSize: 22, fontWeight: 800 });
export const claimBody = style({ opacity: 0.9, lineHeight: 1.7 });

export const section = style({ maxWidth: 1120, margin: '0 auto', padding: '56px 20px 8px', '@media': { [narrow]: { padding: '36px 16px 4px' } } });
export const sectionHead = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', marginBottom: 20, gap: 12 });
export const sectionTitle = style({ fontSize: 26, fontWeight: 800, letterSpacing: '-0.02em' });
export const carouselButtons = style({ display: 'flex', gap: 8 });

export const viewport = style({ overflow: 'hidden' });
export const track = style({ display: 'flex', transition: 'transform .45s cubic-bezier(.2,.7,.2,1)' });
export const slide = style({ flex: '0 0 calc(100% / var(--per-view))', padding: '0 8px', boxSizing: 'border-box' });
export const strengthCard = style({
  height: '100%',
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: tokens.radius.lg,
  padding: 28,
  boxShadow: vars.shadow.card,
  display: 'flex',
  flexDirection: 'column',
  gap: 10,
});
export const strengthIcon = style({ width: 52, height: 52, borderRadius: 14, background: vars.color.primarySoft, display: 'grid', placeItems: 'center', fontSize: 26, color: vars.color.primary });
export const strengthTitle = style({ fontSize: 18, fontWeight: 800 });
export const reviewCard = style([strengthCard, { gap: 14 }]);
export const stars = style({ color: '#F5A524', letterSpacing: 2 });
export const reviewMeta = style({ display: 'flex', justifyContent: 'space-between', color: vars.color.textMuted, fontSize: 13, marginTop: 'auto' });
export const dots = style({ display: 'flex', justifyContent: 'center', gap: 2, marginTop: 12 });
/** A 24 × 24 px tap target (WCAG 2.5.8) around the small visual dot drawn by ::before. */
export const dot = style({
  minWidth: 24,
  height: 24,
  display: 'inline-grid',
  placeItems: 'center',
  border: 'none',
  borderRadius: 999,
  padding: '0 4px',
  background: 'transparent',
  cursor: 'pointer',
  '::before': {
    content: '""',
    display: 'block',
    width: 8,
    height: 8,
    borderRadius: 999,
    background: vars.color.borderStrong,
    transition: 'width .2s',
  },
  selectors: {
    '&[aria-current="true"]::before': { width: 24, background: vars.color.primary },
    '&:hover::before': { background: vars.color.textMuted },
    '&[aria-current="true"]:hover::before': { background: vars.color.primary },
  },
});

const marquee = keyframes({ from: { transform: 'translateX(0)' }, to: { transform: 'translateX(-50%)' } });
export const banner = style({ marginTop: 56, background: vars.color.text, color: vars.color.bg, overflow: 'hidden', padding: '18px 0' });
export const bannerTrack = style({
  display: 'flex',
  gap: 36,
  width: 'max-content',
  animation: `${marquee} 30s linear infinite`,
  fontWeight: 800,
  fontSize: 20,
  '@media': { '(prefers-reduced-motion: reduce)': { animation: 'none' } },
});
