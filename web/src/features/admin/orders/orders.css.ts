import { style } from '@vanilla-extract/css';

/** The console's narrow layout (admin.css.ts): up to 1280 px the provider goes under the forwarding state. */
const narrow = 'screen and (max-width: 1280px)';
export const wideOnly = style({ '@media': { [narrow]: { display: 'none' } } });
export const narrowOnly = style({ display: 'none', '@media': { [narrow]: { display: 'flex' } } });
export const stack = style({ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 4 });
