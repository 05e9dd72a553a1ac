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

/** One order's entry of a provider's `status` answer, as the client read it. */
export type StatusEntry = { status: string; startCount: number | null; remains: number | null; badRemains: boolean };

/**
 * What a status entry does to an open forward: move it, nothing, or send it to review because the
 * provider said something we cannot act on — a status no panel uses ("Exploded"), or remains that
 * are not a non-negative integer where they count (a Partial's remains decide its refund, so a
 * Partial needs them). A review keeps the record as it was; the note says why ("<kind>: <detail>").
 */
export type Judged = { kind: 'move'; next: Known } | { kind: 'same' } | { kind: 'review'; note: string };

export function judgeReport(known: Known, entry: StatusEntry, amount: number): Judged {
  const status = ourStatus(entry.status);
  if (status === undefined) return { kind: 'review', note: `unknown-status: "${entry.status.slice(0, 40)}"` };
  if (isFinal(known.status)) return { kind: 'same' };
  const decided = status === S.COMPLETED || status === S.CANCELED;
  if (!decided && entry.badRemains) return { kind: 'review', note: `bad-remains: ${entry.status}` };
  if (status === S.PARTIAL && entry.remains === null) return { kind: 'review', note: 'bad-remains: Partial without remains' };
  const next = nextStatus(known, { status, startCount: entry.startCount, remains: entry.remains ?? known.remains }, amount);
  return next === null ? { kind: 'same' } : { kind: 'move', next };
}
