import { describe, expect, it } from 'vitest';
import { type AutoSchedule, claimDueRuns, isScheduleProblem, startSchedule } from './auto-schedule.ts';

const minute = 1000;
const t0 = new Date('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

function schedule(over: Partial<AutoSchedule> = {}): AutoSchedule {
  const started = startSchedule({ autoOrderId: 7, userId: 'u1', runs: 3, intervalMinutes: 60, acceptedAt: t0, now: t0 });
  if (isScheduleProblem(started)) throw new Error(started.message);
  return { ...started, ...over };
}

describe('startSchedule', () => {
  it('makes run 1 due at acceptance', () => {
    expect(schedule()).toEqual({ autoOrderId: 7, userId: 'u1', runs: 3, intervalMinutes: 60, nextRun: 1, dueAt: t0, state: 'active' });
  });

  it('treats an acceptance stamped in the future as now', () => {
    const s = startSchedule({ autoOrderId: 7, userId: 'u1', runs: 3, intervalMinutes: 60, acceptedAt: at(5000), now: t0 });
    expect(isScheduleProblem(s) ? null : s.dueAt).toEqual(t0);
  });

  it('refuses an auto order without runs or interval', () => {
    expect(startSchedule({ autoOrderId: 7, userId: 'u1', runs: 0, intervalMinutes: 60, acceptedAt: t0, now: t0 })).toMatchObject({ code: 'RUNS_INVALID' });
    expect(startSchedule({ autoOrderId: 7, userId: 'u1', runs: 3, intervalMinutes: 0, acceptedAt: t0, now: t0 })).toMatchObject({ code: 'INTERVAL_INVALID' });
  });
});

describe('claimDueRuns', () => {
  it('claims nothing before the due time', () => {
    expect(claimDueRuns(schedule({ dueAt: at(10) }), t0, minute, 100)).toBeNull();
  });

  it('claims the one due run and moves the next onto the grid', () => {
    expect(claimDueRuns(schedule(), at(5), minute, 100)).toEqual({
      expectedNextRun: 1,
      due: [{ run: 1, dueAt: t0 }],
      next: { nextRun: 2, dueAt: at(60 * minute), state: 'active' },
    });
  });

  it('claims every missed run in order after an outage, keeping the grid', () => {
    const claim = claimDueRuns(schedule({ runs: 10, nextRun: 2, dueAt: at(60 * minute) }), at(245 * minute), minute, 100);
    expect(claim?.due).toEqual([
      { run: 2, dueAt: at(60 * minute) },
      { run: 3, dueAt: at(120 * minute) },
      { run: 4, dueAt: at(180 * minute) },
      { run: 5, dueAt: at(240 * minute) },
    ]);
    expect(claim?.next).toEqual({ nextRun: 6, dueAt: at(300 * minute), state: 'active' });
  });

  it('never claims past the last run, and exhausts the schedule with it', () => {
    const claim = claimDueRuns(schedule({ nextRun: 2, dueAt: at(60 * minute) }), at(10_000 * minute), minute, 100);
    expect(claim?.due.map((d) => d.run)).toEqual([2, 3]);
    expect(claim?.next).toEqual({ nextRun: 4, dueAt: null, state: 'exhausted' });
  });

  it('claims a long backlog in bounded steps', () => {
    const claim = claimDueRuns(schedule({ runs: 500 }), at(1_000_000 * minute), minute, 100);
    expect(claim?.due).toHaveLength(100);
    expect(claim?.next).toMatchObject({ nextRun: 101, state: 'active' });
  });

  it('claims nothing for an ended schedule', () => {
    expect(claimDueRuns(schedule({ state: 'canceled' }), at(1_000 * minute), minute, 100)).toBeNull();
    expect(claimDueRuns(schedule({ state: 'exhausted', nextRun: 4, dueAt: null }), at(1_000 * minute), minute, 100)).toBeNull();
  });
});
