import { style } from '@vanilla-extract/css';
import { tokens, vars } from '../theme/contract.css.ts';

/** A support ticket's thread (issue 40), on the member site and in the console alike. */
export const thread = style({ display: 'flex', flexDirection: 'column', gap: 12, listStyle: 'none', margin: 0, padding: 0 });
export const bubble = style({
  maxWidth: '82%',
  padding: '10px 14px',
  borderRadius: tokens.radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  display: 'flex',
  flexDirection: 'column',
  gap: 4,
  '@media': { 'screen and (max-width: 600px)': { maxWidth: '100%' } },
});
export const mine = style({ alignSelf: 'flex-end', background: vars.color.primarySoft, borderColor: 'transparent' });
export const theirs = style({ alignSelf: 'flex-start' });
export const who = style({ fontSize: 12, fontWeight: 700, color: vars.color.textMuted, display: 'flex', gap: 8 });
/** Members' and operators' text exactly as typed: line breaks kept, long words wrapped, never markup. */
export const body = style({ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontSize: 15, lineHeight: 1.6, color: vars.color.text });
