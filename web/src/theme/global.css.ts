import { globalStyle } from '@vanilla-extract/css';
import { tokens, vars } from './contract.css.ts';

globalStyle('*, *::before, *::after', { boxSizing: 'border-box' });
globalStyle('html', { colorScheme: 'light', WebkitTextSizeAdjust: '100%' });
globalStyle('html.theme-dark', { colorScheme: 'dark' });
globalStyle('body', {
  margin: 0,
  fontFamily: tokens.font,
  fontSize: '15px',
  lineHeight: 1.6,
  color: vars.color.text,
  background: vars.color.bg,
  wordBreak: 'keep-all',
  overflowWrap: 'anywhere',
  WebkitFontSmoothing: 'antialiased',
});
globalStyle('a', { color: 'inherit' });
globalStyle('button, input, select, textarea', { font: 'inherit', color: 'inherit' });
globalStyle('h1, h2, h3, h4, p', { margin: 0 });
globalStyle(':focus-visible', { outline: `2px solid ${vars.color.focus}`, outlineOffset: '2px' });
globalStyle('.sr-only', {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
});
globalStyle('a.sr-only:focus', {
  position: 'fixed',
  top: 8,
  left: 8,
  width: 'auto',
  height: 'auto',
  margin: 0,
  padding: '10px 16px',
  clip: 'auto',
  zIndex: 2000,
  background: vars.color.surface,
  borderRadius: 8,
  boxShadow: vars.shadow.pop,
});
