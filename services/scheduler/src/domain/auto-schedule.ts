/**
 * The due times of one auto order: run n (1-based) is due at `firstDueAt + (n − 1) × interval`.
 * Times stay on that grid whatever happens to the scheduler, so a restart catches up by firing every
 * missed run, each once, in order.
 */
export type AutoScheduleState =
  /** Runs are left; `nextRun` is due at `dueAt`. */
  | 'active'
  /** Every run fired; waiting for order's AutoOrderCompleted (nothing more to do either way). */
  | 'exhausted'
  /** order reported every run placed. */
  | 'completed'
  /** The member cancelled; remaining runs never fire. */
  | 'canceled';

export type AutoSchedule = {
  autoOrderId: number;
  userId: string;
  runs: number;
  intervalMinutes: number;
  /** The run that fires next; `runs + 1` once all fired. */
  nextRun: number;
  /** When `nextRun` is due; null once nothing is left to fire. */
  dueAt: Date | null;
  state: AutoScheduleState;
};

export type ScheduleProblem = { code: 'RUNS_INVALID' | 'INTERVAL_INVALID'; message: string };

/**
 * A schedule for an accepted auto order. The first run is due when the order was accepted — not
 * when this scheduler got round to reading the event — so a lagging consumer does not shift the grid;
 * an acceptance stamped in the future (another machine's clock) counts as now.
 */
export function startSchedule(input: {
  autoOrderId: number;
  userId: string;
  runs: number;
  intervalMinutes: number;
  acceptedAt: Date;
  now: Date;
}): AutoSchedule | ScheduleProblem {
  if (!Number.isSafeInteger(input.runs) || input.runs < 1) return { code: 'RUNS_INVALID', message: `an auto order needs at least one run, got ${input.runs}` };
  if (!Number.isSafeInteger(input.intervalMinutes) || input.intervalMinutes < 1) {
    return { code: 'INTERVAL_INVALID', message: `an auto order needs an interval of at least one minute, got ${input.intervalMinutes}` };
  }
  const first = Math.min(input.acceptedAt.getTime(), input.now.getTime());
  return {
    autoOrderId: input.autoOrderId,
    userId: input.userId,
    runs: input.runs,
    intervalMinutes: input.intervalMinutes,
    nextRun: 1,
    dueAt: new Date(first),
    state: 'active',
  };
}

export function isScheduleProblem(value: AutoSchedule | ScheduleProblem): value is ScheduleProblem {
  return 'code' in value;
}

export type DueRun = { run: number; dueAt: Date };

/** What one claim changes: `expectedNextRun` guards it, so two schedulers never claim the same runs. */
export type RunClaim = {
  expectedNextRun: number;
  due: DueRun[];
  next: { nextRun: number; dueAt: Date | null; state: 'active' | 'exhausted' };
};

/**
 * The runs due at `now`, oldest first, at most `max` of them (a long outage is caught up in
 * bounded steps), and the schedule after firing them. Null when nothing is due.
 */
export function claimDueRuns(schedule: AutoSchedule, now: Date, minuteMs: number, max: number): RunClaim | null {
  if (schedule.state !== 'active' || schedule.dueAt === null || schedule.nextRun > schedule.runs) return null;
  const step = schedule.intervalMinutes * minuteMs;
  const due: DueRun[] = [];
  let run = schedule.nextRun;
  let dueAt = schedule.dueAt.getTime();
  while (run <= schedule.runs && dueAt <= now.getTime() && due.length < max) {
    due.push({ run, dueAt: new Date(dueAt) });
    run += 1;
    dueAt += step;
  }
  if (due.length === 0) return null;
  const left = run <= schedule.runs;
  return {
    expectedNextRun: schedule.nextRun,
    due,
    next: { nextRun: run, dueAt: left ? new Date(dueAt) : null, state: left ? 'active' : 'exhausted' },
  };
}

/** The states an AutoOrderCompleted / AutoOrderCanceled may end; an ended schedule stays as it is. */
export const finishableAutoStates: readonly AutoScheduleState[] = ['active', 'exhausted'];
