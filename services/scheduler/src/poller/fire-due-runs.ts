import type { Logger } from 'pino';
import { AutoOrderRunDue, Topics } from '@smm/contracts';
import { type Connection, appendToOutbox, inTransaction } from '@smm/platform';
import { claimDueRuns } from '../domain/auto-schedule.ts';
import type { AutoSchedules } from '../store/auto-schedule.model.ts';
import type { OutboxProgress } from '../store/outbox-progress.ts';
import type { FireResult } from './due-poller.ts';

export type FireRunsDeps = {
  connection: Connection;
  schedules: AutoSchedules;
  progress: OutboxProgress;
  logger: Logger;
  /** How long one "minute" of an interval lasts (60,000 in production). */
  minuteMs: number;
};

/** Schedules looked at per pass, and runs one transaction may fire (a long outage is caught up in steps). */
const schedulesPerPass = 100;
const runsPerClaim = 100;

/**
 * Fires every auto-order run due at `now`: per schedule, one transaction moves `nextRun` past the
 * due runs (only if it still has the value read — otherwise another instance won) and records one
 * AutoOrderRunDue per run in the outbox, oldest first.
 */
export async function fireDueRuns(deps: FireRunsDeps, now: Date): Promise<FireResult> {
  const { connection, schedules, progress, logger, minuteMs } = deps;
  const result: FireResult = { fired: 0, waiting: 0 };
  for (const { schedule, origin, lastEventId } of await schedules.findDue(now, schedulesPerPass)) {
    if (lastEventId !== null && !(await progress.published(lastEventId))) {
      result.waiting += 1;
      continue;
    }
    const claim = claimDueRuns(schedule, now, minuteMs, runsPerClaim);
    if (claim === null) continue;
    const aggregateId = `order-${schedule.autoOrderId}`;
    const events = await inTransaction(connection, async (session) => {
      const due = claim.due.map((d) =>
        AutoOrderRunDue.create(aggregateId, { autoOrderId: schedule.autoOrderId, userId: schedule.userId, run: d.run, dueAt: d.dueAt.toISOString() }, origin),
      );
      if (!(await schedules.claim(schedule.autoOrderId, claim, due.at(-1)!.eventId, session))) return [];
      await appendToOutbox(connection, session, Topics.scheduler, due);
      return due;
    });
    if (events.length === 0) {
      logger.debug({ autoOrderId: schedule.autoOrderId, run: claim.expectedNextRun }, 'auto-order run already claimed elsewhere');
      continue;
    }
    result.fired += events.length;
    for (const event of events) {
      logger.info(
        { correlationId: event.correlationId, eventId: event.eventId, autoOrderId: event.data.autoOrderId, run: event.data.run, runs: schedule.runs, dueAt: event.data.dueAt },
        'auto-order run due',
      );
    }
  }
  return result;
}
