import { style } from '@vanilla-extract/css';
import { tokens, vars } from '../../theme/contract.css.ts';

/** Shared console inputs: an on/off switch and a colour field with its preview. */
export const switchRow = style({ display: 'inline-flex', alignItems: 'center', gap: 10, fontSize: 14, fontWeight: 600, cursor: 'pointer', userSelect: 'none', minHeight: 34 });
export const track = style({
  position: 'relative',
  flex: 'none',
  width: 42,
  height: 24,
  borderRadius: tokens.radius.pill,
  border: `1px solid ${vars.color.borderStrong}`,
  background: vars.color.surfaceAlt,
  padding: 0,
  cursor: 'pointer',
  transition: 'background .15s',
  selectors: {
    '&[aria-checked="true"]': { background: vars.color.primary, borderColor: vars.color.primary },
    '&:disabled': { opacity: 0.45, cursor: 'not-allowed' },
  },
});
export const thumb = style({
  position: 'absolute',
  top: 2,
  left: 2,
  width: 18,
  height: 18,
  borderRadius: '50%',
  background: vars.color.surface,
  boxShadow: '0 1px 2px rgba(0,0,0,.3)',
  transition: 'transform .15s',
  selectors: { [`${track}[aria-checked="true"] &`]: { transform: 'translateX(18px)' } },
});
export const colourRow = style({ display: 'flex', gap: 8, alignItems: 'center' });
export const colourPicker = style({ flex: 'none', width: 44, height: 44, padding: 2, border: `1px solid ${vars.color.borderStrong}`, borderRadius: tokens.radius.sm, background: vars.color.surface, cursor: 'pointer' });
export const preview = style({
  flex: 'none',
  minWidth: 92,
  height: 44,
  padding: '0 12px',
  display: 'grid',
  placeItems: 'center',
  borderRadius: tokens.radius.sm,
  border: `1px solid ${vars.color.border}`,
  fontSize: 13,
  fontWeight: 700,
  color: '#FFFFFF',
});
/** A small colour chip next to a name in a table. */
export const swatch = style({ display: 'inline-block', width: 16, height: 16, borderRadius: 5, border: `1px solid ${vars.color.border}`, verticalAlign: 'middle', marginRight: 8 });
export const moveButtons = style({ display: 'inline-flex', gap: 2 });
export const moveButton = style({ minWidth: 34, padding: '0 8px' });
/** A dialog holding a form of several fields: wider than a confirmation, scrolling when tall. */
export const formDialog = style({ width: 'min(92vw, 640px)', maxHeight: '90vh', overflowY: 'auto' });
/** A card's title with its buttons on the same line (the title's own bottom margin moves to the row). */
export const sectionHead = style({ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', justifyContent: 'space-between', marginBottom: 14 });
export const sectionTitle = style({ selectors: { [`${sectionHead} &`]: { marginBottom: 0 } } });
/** A long text in a table cell: two lines at most, then an ellipsis. */
export const clamp2 = style({ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', whiteSpace: 'normal', minWidth: 220, lineHeight: 1.5 });
/** The fields of a form dialog in two columns; long texts take the whole row. */
export const dialogGrid = style({ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 14, alignItems: 'start' });
export const fullRow = style({ gridColumn: '1 / -1' });
/** Settings: labels line up at the top whether a field has a hint or is a switch. */
export const settingsGrid = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(3, minmax(0, 1fr))',
  gap: 14,
  alignItems: 'start',
  '@media': { 'screen and (max-width: 1280px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } },
});
/** The dialog's buttons stay in view while a tall form scrolls under them. */
export const stickyActions = style({ position: 'sticky', bottom: -28, margin: '0 -28px -28px', padding: '14px 28px 20px', background: vars.color.surface, borderTop: `1px solid ${vars.color.border}` });
