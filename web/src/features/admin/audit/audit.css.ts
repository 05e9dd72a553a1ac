import { style } from '@vanilla-extract/css';
import { vars } from '../../../theme/contract.css.ts';

/** The audit screen's own pieces; the filter frame, table and pager are the console's. */
export const field = style({ display: 'flex', flexDirection: 'column', gap: 4 });
export const fieldLabel = style({ fontSize: 12, fontWeight: 700, color: vars.color.textMuted });
export const buttons = style({ display: 'flex', gap: 6, alignSelf: 'flex-end' });
export const changeCell = style({ whiteSpace: 'normal', minWidth: 280, maxWidth: 520 });
export const changes = style({ display: 'flex', flexDirection: 'column', gap: 4, margin: 0, fontSize: 13, lineHeight: 1.45 });
export const note = style({ fontSize: 12, fontWeight: 700, color: vars.color.textMuted });
export const change = style({ display: 'flex', gap: 8, alignItems: 'baseline', flexWrap: 'wrap' });
export const changeKey = style({ fontWeight: 700, color: vars.color.textMuted, minWidth: 64 });
export const changeValue = style({ margin: 0, display: 'flex', gap: 6, alignItems: 'baseline', flexWrap: 'wrap', wordBreak: 'break-all' });
export const before = style({ color: vars.color.danger, textDecoration: 'line-through', textDecorationThickness: 1 });
export const arrow = style({ color: vars.color.textMuted });
export const after = style({ color: vars.color.success, fontWeight: 700 });
