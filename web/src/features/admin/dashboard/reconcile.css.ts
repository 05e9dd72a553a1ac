import { style } from '@vanilla-extract/css';
import { vars } from '../../../theme/contract.css.ts';

/** The reconciliation card: its title and button on one line (wrapping on a narrow screen), findings that wrap. */
export const head = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 12 });
export const summary = style({ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 8, margin: '12px 0 0', fontWeight: 700 });
export const finding = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr) auto',
  gap: 12,
  padding: '10px 0',
  borderTop: `1px solid ${vars.color.border}`,
  overflowWrap: 'anywhere',
  '@media': { 'screen and (max-width: 640px)': { gridTemplateColumns: 'minmax(0, 1fr)' } },
});
export const findings = style({ listStyle: 'none', margin: '12px 0 0', padding: 0 });
export const where = style({ display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'flex-end', '@media': { 'screen and (max-width: 640px)': { alignItems: 'flex-start' } } });
