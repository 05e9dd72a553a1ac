import { keyframes, style } from '@vanilla-extract/css';
import { tokens, vars } from '../theme/contract.css.ts';

const wide = 'screen and (min-width: 1281px)';
const narrow = 'screen and (max-width: 1280px)';

/** Heights of the sticky header (64 px + its border) and the status bar under it. */
export const headerHeight = 65;
export const statusBarHeight = 35;

export const shell = style({ minHeight: '100vh', display: 'flex', flexDirection: 'column' });
/**
 * The content area fills the first screen even while a lazily loaded screen is still on its way,
 * so the footer starts below the fold and does not jump down when the screen arrives (CLS).
 */
export const main = style({ flex: 1, minHeight: `calc(100vh - ${headerHeight + statusBarHeight}px)` });


export const header = style({
  position: 'sticky',
  top: 0,
  zIndex: 50,
  background: `color-mix(in srgb, ${vars.color.surface} 92%, transparent)`,
  backdropFilter: 'saturate(1.4) blur(10px)',
  borderBottom: `1px solid ${vars.color.border}`,
});
export const headerInner = style({
  maxWidth: 1400,
  margin: '0 auto',
  height: headerHeight - 1,
  padding: '0 20px',
  display: 'flex',
  alignItems: 'center',
  gap: 16,
});
export const logo = style({ display: 'inline-flex', alignItems: 'center', gap: 10, textDecoration: 'none', fontWeight: 800, fontSize: 19, letterSpacing: '-0.03em', flexShrink: 0 });
export const logoImg = style({ width: 32, height: 32, borderRadius: 9 });
export const navList = style({
  display: 'flex',
  alignItems: 'center',
  gap: 2,
  listStyle: 'none',
  margin: 0,
  padding: 0,
  flex: 1,
  '@media': { [narrow]: { display: 'none' } },
});
export const navRight = style({ display: 'flex', alignItems: 'center', gap: 6, marginLeft: 'auto' });
export const navLink = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: 6,
  padding: '8px 12px',
  borderRadius: tokens.radius.sm,
  textDecoration: 'none',
  fontWeight: 600,
  fontSize: 15,
  color: vars.color.textMuted,
  whiteSpace: 'nowrap',
  background: 'none',
  border: 'none',
  cursor: 'pointer',
  selectors: {
    '&:hover': { color: vars.color.text, background: vars.color.surfaceAlt },
    '&[aria-current="page"]': { color: vars.color.primaryInk, background: vars.color.primarySoft },
  },
});
export const balance = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: 8,
  padding: '6px 8px 6px 14px',
  borderRadius: tokens.radius.pill,
  background: vars.color.surfaceAlt,
  textDecoration: 'none',
  fontWeight: 700,
  fontVariantNumeric: 'tabular-nums',
  whiteSpace: 'nowrap',
});
export const topUpBadge = style({
  padding: '2px 10px',
  borderRadius: tokens.radius.pill,
  background: vars.color.primary,
  color: vars.color.primaryText,
  fontSize: 12,
  fontWeight: 700,
});
export const spacer = style({ flex: 1, '@media': { [wide]: { display: 'none' } } });
export const iconButton = style({
  width: 40,
  height: 40,
  display: 'inline-grid',
  placeItems: 'center',
  borderRadius: tokens.radius.sm,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  cursor: 'pointer',
  color: vars.color.text,
  flexShrink: 0,
});
export const hamburger = style([iconButton, { position: 'relative', '@media': { [wide]: { display: 'none' } } }]);
export const wideOnly = style({ '@media': { [narrow]: { display: 'none' } } });

const drop = keyframes({ from: { opacity: 0, transform: 'translateY(-6px)' }, to: { opacity: 1, transform: 'none' } });
export const mobilePanel = style({
  borderTop: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  padding: '10px 16px 16px',
  animation: `${drop} .15s ease-out`,
  boxShadow: vars.shadow.pop,
  '@media': { [wide]: { display: 'none' } },
});
export const mobileList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 2 });
export const mobileLink = style([navLink, { display: 'flex', width: '100%', padding: '12px 12px', fontSize: 16 }]);

export const statusBar = style({
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
  fontSize: 13,
  color: vars.color.textMuted,
});
export const statusInner = style({ maxWidth: 1400, margin: '0 auto', padding: '7px 20px', display: 'flex', alignItems: 'center', gap: 10, flexWrap: 'wrap' });
// The dot's pulse is a ring that grows and fades: transform and opacity only, so the compositor
// runs it without the main thread (an animated box-shadow repainted the page's top every frame,
// on every page, for as long as it was open).
const pulse = keyframes({ from: { transform: 'scale(1)', opacity: 0.45 }, to: { transform: 'scale(3)', opacity: 0 } });
export const statusDot = style({
  position: 'relative',
  flexShrink: 0,
  width: 8,
  height: 8,
  borderRadius: '50%',
  background: vars.color.success,
  selectors: {
    '&::after': { content: '""', position: 'absolute', inset: 0, borderRadius: '50%', background: 'inherit', animation: `${pulse} 1.6s infinite` },
  },
  '@media': { '(prefers-reduced-motion: reduce)': { selectors: { '&::after': { animation: 'none', opacity: 0 } } } },
});
export const statusDotWarn = style({ width: 8, height: 8, borderRadius: '50%', background: vars.color.warning });
// Tabular figures keep the ticking clock from shifting; the text font has them (no monospace font to look up on every page).
export const clock = style({ marginLeft: 'auto', fontVariantNumeric: 'tabular-nums', fontSize: 12 });

export const footer = style({
  marginTop: 40,
  borderTop: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.textMuted,
  fontSize: 13,
});
export const footerInner = style({ maxWidth: 1120, margin: '0 auto', padding: '28px 20px 40px', display: 'grid', gap: 10 });
/**
 * The floating chat button hides while it would cover content; the footer keeps empty room under
 * its last line (44 px button + 16–20 px offset + air) so the button has a place to show on every page.
 */
export const footerRoomForChat = style({ paddingBottom: 88, '@media': { 'screen and (max-width: 880px)': { paddingBottom: 84 } } });
export const footerLinks = style({ display: 'flex', gap: 16, fontWeight: 700, color: vars.color.text });
export const footerFacts = style({ display: 'flex', flexWrap: 'wrap', columnGap: 14, rowGap: 4 });

export const chat = style({
  position: 'fixed',
  right: 20,
  bottom: 20,
  '@media': { 'screen and (max-width: 880px)': { right: 16, bottom: 16 } },
  zIndex: 60,
  display: 'inline-flex',
  alignItems: 'center',
  gap: 8,
  padding: '12px 18px',
  borderRadius: tokens.radius.pill,
  background: '#FEE500',
  color: '#191600',
  fontWeight: 800,
  fontSize: 14,
  textDecoration: 'none',
  boxShadow: vars.shadow.pop,
});
/** Over content: invisible and not clickable, but still laid out so its box can be re-checked. */
export const chatHidden = style({ opacity: 0, pointerEvents: 'none' });

export const landscape = style({
  background: vars.color.info,
  color: '#fff',
  fontSize: 13,
  fontWeight: 600,
  display: 'flex',
  alignItems: 'center',
  gap: 10,
  padding: '8px 12px 8px 16px',
});
/** A warning from the operators (issue 12): in the page's flow under the status bar, not over content. */
export const warningNotice = style({
  background: vars.color.warningSoft,
  color: vars.color.warning,
  borderBottom: `1px solid ${vars.color.warning}`,
  fontSize: 13,
  display: 'flex',
  alignItems: 'center',
  gap: 10,
  padding: '8px 12px 8px 16px',
});
export const warningAcknowledge = style({ marginLeft: 'auto', flexShrink: 0, background: 'transparent', border: `1px solid ${vars.color.warning}`, color: vars.color.warning, borderRadius: 6, padding: '3px 10px', cursor: 'pointer', fontWeight: 700 });
export const landscapeClose = style({ marginLeft: 'auto', background: 'rgba(255,255,255,.18)', border: 'none', color: '#fff', borderRadius: 6, padding: '4px 10px', cursor: 'pointer', fontWeight: 700 });

/** The count of unread answers beside "1:1 문의" (issue 40); on phones a dot on the menu button too. */
export const unreadMark = style({
  minWidth: 20,
  height: 20,
  padding: '0 6px',
  borderRadius: tokens.radius.pill,
  background: vars.color.danger,
  color: '#fff',
  fontSize: 12,
  fontWeight: 800,
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  lineHeight: 1,
});
export const menuDot = style({ position: 'absolute', top: 8, right: 8, width: 9, height: 9, borderRadius: '50%', background: vars.color.danger, border: `2px solid ${vars.color.surface}` });
