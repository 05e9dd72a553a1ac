import type { Connection } from '@smm/platform';
import type { AutoSchedules } from '../store/auto-schedule.model.ts';
import type { TopUpExpiries } from '../store/topup-expiry.model.ts';

/** The consumer name under which handled events are recorded (`processed_events`). */
export const consumerName = 'scheduler';

export type HandlerDeps = {
  connection: Connection;
  schedules: AutoSchedules;
  expiries: TopUpExpiries;
  /** Tells the poller an item falls due at that time. */
  wake: (at: Date) => void;
};
