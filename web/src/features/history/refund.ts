import type { AutoOrderItem } from '../../lib/types.ts';

/**
 * What cancelling an active auto order gives back: the runs not yet placed, each charged
 * `chargeDeci / runs` up front (order always sends `chargeDeci`). The cancel answer's `refundDeci`
 * is the final word (a run may be placed between the dialog and the click).
 */
export function expectedRefundDeci(item: Pick<AutoOrderItem, 'chargeDeci' | 'runs' | 'completed'>): number {
  if (item.runs <= 0) return 0;
  const perRun = Math.floor(item.chargeDeci / item.runs);
  return perRun * Math.max(0, item.runs - item.completed);
}
