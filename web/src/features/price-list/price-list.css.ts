import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/contract.css.ts';

export const toolbar = style({ display: 'flex', flexDirection: 'column', gap: 12 });
export const platformTitle = style({ display: 'flex', alignItems: 'center', gap: 12, fontSize: 20, fontWeight: 800, marginBottom: 8 });
export const icon = style({ width: 36, height: 36, borderRadius: 10, display: 'grid', placeItems: 'center' });
export const category = style({ marginTop: 18 });
export const categoryTitle = style({ fontSize: 15, fontWeight: 700, color: vars.color.textMuted, marginBottom: 8 });
