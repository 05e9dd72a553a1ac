import { OrderStatus } from '@smm/contracts';

const S = OrderStatus.values;

/** API v2 status names (any case, as panels vary) to our spec §4 values. */
const byName: Readonly<Record<string, number>> = {
  pending: S.PENDING,
  'in progress': S.IN_PROGRESS,
  inprogress: S.IN_PROGRESS,
  processing: S.PROCESSING,
  completed: S.COMPLETED,
  partial: S.PARTIAL,
  canceled: S.CANCELED,
  cancelled: S.CANCELED,
};

export function ourStatus(providerStatus: string): number | undefined {
  return byName[providerStatus.trim().toLowerCase()];
}

const finals: ReadonlySet<number> = new Set([S.COMPLETED, S.PARTIAL, S.CANCELED]);
export const isFinal = (status: number) => finals.has(status);

export type Reported = { status: number; startCount: number | null; remains: number };
export type Known = { status: number; startCount: number | null; remains: number };

/**
 * Whether a provider's report moves our order, and to what. Orders only move forward: a final
 * status stays, and a report back to Pending after work began is ignored (providers do report
 * statuses that jump back). Remains never exceed the order's amount; completed leaves none.
 */
export function nextStatus(known: Known, reported: Reported, amount: number): Known | null {
  if (isFinal(known.status)) return null;
  if (reported.status === S.PENDING) {
    return null; // order starts at pending; nothing to move, and never back to it
  }
  const remains = reported.status === S.COMPLETED ? 0 : reported.status === S.CANCELED ? amount : Math.min(Math.max(0, reported.remains), amount);
  const startCount = reported.startCount ?? known.startCount;
  if (reported.status === known.status && remains === known.remains && startCount === known.startCount) return null;
  return { status: reported.status, startCount, remains };
}
