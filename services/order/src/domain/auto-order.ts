import { AutoOrderStatus } from '@smm/contracts';
import { messages } from './messages.ts';
import { type Problem, problem } from './problem.ts';

const A = AutoOrderStatus.values;

export type AutoOrderFacts = {
  id: number;
  status: number | null;
  runs: number;
  completed: number;
  chargeDeci: number;
  perRunDeci: number;
  refundedDeci: number;
};

export type RunVerdict =
  | { ok: true; run: number; completedAfter: number; statusAfter: number; finished: boolean }
  | { ok: false; reason: string };

/**
 * A due run becomes a child order only while the auto order is active and only as the next run:
 * a duplicate, an out-of-order run or a run after cancel changes nothing.
 */
export function placeRun(auto: AutoOrderFacts, run: number): RunVerdict {
  if (auto.status !== A.ACTIVE) return { ok: false, reason: auto.status === null ? 'auto order not paid' : `auto order status ${auto.status}` };
  if (run <= auto.completed) return { ok: false, reason: 'run already placed' };
  if (run !== auto.completed + 1) return { ok: false, reason: `run ${run} out of order (next is ${auto.completed + 1})` };
  if (run > auto.runs) return { ok: false, reason: 'run beyond the last one' };
  const finished = run === auto.runs;
  // Partial (shown as completed) when part of the money already went back to the member.
  const statusAfter = finished ? (auto.refundedDeci > 0 ? A.PARTIAL : A.COMPLETED) : A.ACTIVE;
  return { ok: true, run, completedAfter: run, statusAfter, finished };
}

export type CancelVerdict = { ok: true; refundDeci: number; runsDone: number } | { ok: false; problem: Problem };

/**
 * Cancelling refunds exactly the runs not yet placed: charge − share per run × runs placed (the
 * charge is share × runs, so this is share × runs left, an exact integer).
 */
export function cancelAutoOrder(auto: AutoOrderFacts): CancelVerdict {
  if (auto.status !== A.ACTIVE) return { ok: false, problem: problem('AUTO_ORDER_NOT_ACTIVE', messages.autoOrderNotActive) };
  const refundDeci = auto.chargeDeci - auto.perRunDeci * auto.completed;
  return { ok: true, refundDeci, runsDone: auto.completed };
}

/** A child order's refund counts against its auto order: a completed one becomes partial. */
export function statusAfterChildRefund(status: number | null): number | null {
  return status === A.COMPLETED ? A.PARTIAL : status;
}

/** The history filter "completed" also shows partial ones (spec §4: partial is shown as completed). */
export function autoStatusFilter(status: number): number[] {
  return status === A.COMPLETED ? [A.COMPLETED, A.PARTIAL] : [status];
}
