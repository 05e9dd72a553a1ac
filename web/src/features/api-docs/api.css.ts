import { globalStyle, style } from '@vanilla-extract/css';
import { tokens, vars } from '../../theme/contract.css.ts';

export const dl = style({ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '12px 20px', margin: 0, fontSize: 15, '@media': { 'screen and (max-width: 640px)': { gridTemplateColumns: '1fr' } } });
globalStyle(`${dl} dd`, { margin: 0, minWidth: 0 });
globalStyle(`${dl} dt`, { fontWeight: 700 });
export const inline = style({ fontFamily: tokens.mono, fontSize: 13, background: vars.color.surfaceAlt, padding: '2px 8px', borderRadius: 6, wordBreak: 'break-all' });
const method = style({ fontFamily: tokens.mono, fontSize: 12, fontWeight: 800, padding: '3px 10px', borderRadius: 6, color: '#fff' });
export const get = style([method, { background: '#12805C' }]);
export const post = style([method, { background: '#1D6FE0' }]);
// Request above response: a curl line needs the card's full width to read on one line.
export const examples = style({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 14 });
export const exampleTitle = style({ fontSize: 13, fontWeight: 700, color: vars.color.textMuted, marginBottom: 6 });
/** Long request lines wrap inside the block (a token longer than the block breaks), never past it. */
export const code = style({
  margin: 0,
  padding: 16,
  borderRadius: tokens.radius.md,
  background: '#0F1117',
  color: '#E6E8EF',
  fontFamily: tokens.mono,
  fontSize: 13,
  lineHeight: 1.6,
  maxWidth: '100%',
  overflowX: 'auto',
  whiteSpace: 'pre-wrap',
  wordBreak: 'normal',
  overflowWrap: 'anywhere',
});
export const note = style({ fontSize: 14, color: vars.color.textMuted, margin: '6px 0 0', lineHeight: 1.6 });
/** One v2 action: set off from the next by a rule, its example below its fields. */
export const action = style({ borderTop: `1px solid ${vars.color.border}`, paddingTop: 16, marginTop: 16, display: 'flex', flexDirection: 'column', gap: 8 });
export const actionTitle = style({ fontSize: 15, fontWeight: 700, fontFamily: tokens.mono, marginTop: 4 });
export const errors = style({ display: 'flex', flexWrap: 'wrap', gap: 6, listStyle: 'none', padding: 0, margin: '8px 0 0' });
