import { globalStyle, style } from '@vanilla-extract/css';
import { tokens, vars } from '../../theme/contract.css.ts';

/** The console: a side navigation on the left, a top bar and the screen on the right. */
const narrow = 'screen and (max-width: 1280px)';
/**
 * Phones (issue 40's 390 px screenshots of a member's page): the side navigation becomes a
 * wrapping row above the screen, so the screen gets the whole width.
 */
const phone = 'screen and (max-width: 640px)';

export const shell = style({
  minHeight: '100vh',
  display: 'grid',
  gridTemplateColumns: '232px minmax(0, 1fr)',
  // The side column keeps its colour and border below the sticky navigation on long pages.
  background: `linear-gradient(90deg, ${vars.color.surface} 0 231px, ${vars.color.border} 231px 232px, ${vars.color.bg} 232px)`,
  '@media': {
    [narrow]: {
      gridTemplateColumns: '196px minmax(0, 1fr)',
      background: `linear-gradient(90deg, ${vars.color.surface} 0 195px, ${vars.color.border} 195px 196px, ${vars.color.bg} 196px)`,
    },
    [phone]: { gridTemplateColumns: 'minmax(0, 1fr)', background: vars.color.bg },
  },
});
export const side = style({
  position: 'sticky',
  top: 0,
  height: '100vh',
  // The menu has outgrown a laptop's height (21 entries, ~970 px): it scrolls inside the column
  // instead of running out of it below the panel.
  overflowY: 'auto',
  overscrollBehavior: 'contain',
  display: 'flex',
  flexDirection: 'column',
  gap: 4,
  padding: '20px 14px',
  background: vars.color.surface,
  borderRight: `1px solid ${vars.color.border}`,
  '@media': { [phone]: { position: 'static', height: 'auto', flexDirection: 'row', flexWrap: 'wrap', padding: '12px', borderRight: 0, borderBottom: `1px solid ${vars.color.border}` } },
});
export const brand = style({
  display: 'flex',
  alignItems: 'center',
  gap: 10,
  padding: '4px 10px 18px',
  fontWeight: 800,
  fontSize: 17,
  letterSpacing: '-0.02em',
  '@media': { [phone]: { width: '100%', padding: '0 4px 8px' } },
});
export const brandMark = style({
  width: 30,
  height: 30,
  borderRadius: 9,
  display: 'grid',
  placeItems: 'center',
  background: vars.color.primary,
  color: vars.color.primaryText,
  fontSize: 14,
});
export const navLink = style({
  display: 'flex',
  alignItems: 'center',
  minHeight: 42,
  padding: '0 12px',
  borderRadius: tokens.radius.sm,
  color: vars.color.textMuted,
  fontWeight: 600,
  fontSize: 15,
  textDecoration: 'none',
  selectors: {
    '&:hover': { background: vars.color.surfaceAlt, color: vars.color.text },
    '&[aria-current="page"]': { background: vars.color.primarySoft, color: vars.color.primaryInk },
  },
  '@media': { [phone]: { minHeight: 36, padding: '0 10px', fontSize: 14 } },
});
export const sideFoot = style({ marginTop: 'auto', display: 'flex', flexDirection: 'column', gap: 4, '@media': { [phone]: { marginTop: 0, flexDirection: 'row', flexWrap: 'wrap' } } });
export const main = style({ minWidth: 0, display: 'flex', flexDirection: 'column' });
export const topBar = style({
  position: 'sticky',
  top: 0,
  zIndex: 20,
  height: 60,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'flex-end',
  gap: 12,
  padding: '0 24px',
  background: `color-mix(in srgb, ${vars.color.surface} 92%, transparent)`,
  borderBottom: `1px solid ${vars.color.border}`,
});
export const who = style({ display: 'flex', alignItems: 'center', gap: 8, fontWeight: 700, fontSize: 14 });
export const content = style({
  padding: '28px 28px 64px',
  display: 'flex',
  flexDirection: 'column',
  gap: 20,
  minWidth: 0,
  '@media': { [narrow]: { padding: '20px 16px 48px' } },
});
/** Operator tables: every column fits at 1024 px (tighter cells, two-line cells allowed). */
export const table = style({});
globalStyle(`${table} td, ${table} th`, { '@media': { [narrow]: { padding: '10px 6px', fontSize: 13, minWidth: 0 } } });
/** A long value (a link) cut with an ellipsis, narrower on narrow screens. */
export const clip = style({
  display: 'inline-block',
  maxWidth: 160,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  verticalAlign: 'bottom',
  '@media': { [narrow]: { maxWidth: 90 } },
});
export const twoLines = style({ display: 'flex', flexDirection: 'column', gap: 2, lineHeight: 1.35 });
export const sub = style({ fontSize: 12, color: vars.color.textMuted, fontWeight: 500 });
/** A provider's answer as sent: breaks anywhere (HTML and JSON have long unbroken runs). */
export const answerText = style({ wordBreak: 'break-all', whiteSpace: 'pre-wrap' });
export const answer = style({ display: 'flex', flexDirection: 'column', gap: 4 });
/**
 * Wide enough that an answer of a line or two stays a line or two when the table scrolls on a phone
 * (set on the cell's content: a table cell's own min-width does not hold against a narrow table).
 */
export const answerCell = style({ minWidth: 260 });

export const toolbar = style({ display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'flex-end', justifyContent: 'space-between' });
export const filters = style({ display: 'flex', flexDirection: 'column', gap: 10 });
export const filterLabel = style({ fontSize: 13, fontWeight: 700, color: vars.color.textMuted, marginRight: 8, minWidth: 64 });
export const filterRow = style({ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 8 });
export const search = style({ display: 'flex', gap: 8, alignItems: 'center' });
export const searchInput = style({ minHeight: 38, width: 200, padding: '6px 12px', fontSize: 14 });
export const formHint = style({ marginTop: 10 });
export const urgent = style({ color: vars.color.danger, fontWeight: 700 });
export const actions = style({ display: 'flex', gap: 6, flexWrap: 'wrap' });
export const details = style({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '8px 16px', fontSize: 14, margin: 0 });
export const detailKey = style({ color: vars.color.textMuted, fontWeight: 600 });
export const detailValue = style({ margin: 0, wordBreak: 'break-all' });

export const forbidden = style({ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 24, background: vars.color.bg });
export const forbiddenCard = style({ maxWidth: 440, textAlign: 'center', display: 'flex', flexDirection: 'column', gap: 14, alignItems: 'center' });
export const forbiddenCode = style({ fontSize: 56, fontWeight: 800, color: vars.color.primaryInk, lineHeight: 1 });

/** A form laid out in three columns (two at 1024 px), its buttons on a row of their own. */
export const formGrid = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(3, minmax(0, 1fr))',
  gap: 14,
  alignItems: 'end',
  '@media': { [narrow]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } },
});
export const formActions = style({ gridColumn: '1 / -1', display: 'flex', gap: 8 });
/** A form row across the whole grid (a checkbox with a long label). */
export const formWide = style({ gridColumn: '1 / -1' });
export const warnText = style({ color: vars.color.danger, fontWeight: 700 });
export const fieldset = style({ border: 0, padding: 0, margin: 0, minWidth: 0 });
export const subTitle = style({ fontSize: 15, fontWeight: 700, margin: '22px 0 10px' });
/** The mapping form keeps three columns at 1024 px too: its rows are product/mode, provider/service, rule. */
export const formGrid3 = style([formGrid, { '@media': { [narrow]: { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' } } }]);
export const cardLead = style({ marginBottom: 14 });
/** A right-aligned number with a badge under it (the badge keeps its own width). */
export const endStack = style({ display: 'flex', flexDirection: 'column', alignItems: 'flex-end', gap: 4 });

/** Dashboard: figure cards, the 7-day chart (SVG filled from theme variables) and small lists. */
export const statGrid = style({ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 16 });
export const stat = style({ display: 'flex', flexDirection: 'column', gap: 6 });
export const statLabel = style({ fontSize: 13, fontWeight: 700, color: vars.color.textMuted });
export const statValue = style({ fontSize: 26, fontWeight: 800, letterSpacing: '-0.02em', fontVariantNumeric: 'tabular-nums' });
export const statSub = style({ fontSize: 13, color: vars.color.textMuted, fontVariantNumeric: 'tabular-nums' });
export const dashGrid = style({ display: 'grid', gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 1fr)', gap: 16, '@media': { [narrow]: { gridTemplateColumns: 'minmax(0, 1fr)' } } });
export const chartFigure = style({ margin: 0 });
export const chart = style({ width: '100%', height: 'auto', display: 'block' });
export const chartAxis = style({ stroke: vars.color.border, strokeWidth: 1 });
export const chartSales = style({ fill: vars.color.primary, background: vars.color.primary });
export const chartRefunds = style({ fill: vars.color.danger, background: vars.color.danger });
export const chartLabel = style({ fill: vars.color.textMuted, fontSize: 12 });
export const legend = style({ display: 'flex', gap: 16, fontSize: 13, color: vars.color.textMuted, marginTop: 8 });
export const legendItem = style({ display: 'inline-flex', alignItems: 'center', gap: 6 });
export const legendSwatch = style({ width: 12, height: 12, borderRadius: 3, display: 'inline-block' });
export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' });
export const listRow = style({
  display: 'flex',
  justifyContent: 'space-between',
  alignItems: 'center',
  gap: 12,
  padding: '10px 0',
  borderBottom: `1px solid ${vars.color.border}`,
  fontSize: 14,
  selectors: { '&:last-child': { borderBottom: 0 } },
});

/** A card's title with its action on the same line (notices: "모두 확인"). */
export const cardHead = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 12, flexWrap: 'wrap' });

