import { style } from '@vanilla-extract/css';
import { tokens, vars } from '../../theme/contract.css.ts';

export const dl = style({ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '12px 20px', margin: 0, fontSize: 15, '@media': { 'screen and (max-width: 640px)': { gridTemplateColumns: '1fr' } } });
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
