import type { Task } from './tasks.ts';

/**
 * The order tasks are offered to free lanes: longest first by the last recorded wall time (so the
 * long suites start early and the short ones fill the gaps at the end), tasks never timed before
 * first of all (they may be long), ties in discovery order.
 */
export function longestFirst(tasks: readonly Task[], durations: Readonly<Record<string, number>>): Task[] {
  const known = (task: Task) => durations[task.id];
  return tasks
    .map((task, index) => ({ task, index }))
    .sort((a, b) => {
      const da = known(a.task);
      const db = known(b.task);
      if (da === undefined || db === undefined) return da === undefined && db === undefined ? a.index - b.index : da === undefined ? -1 : 1;
      return db - da || a.index - b.index;
    })
    .map(({ task }) => task);
}

/**
 * The next waiting task a free lane may start: a heavy one only while no task of its class runs.
 * The tasks of a heavy class run one after another, so their chain is as long as all of them
 * together: a heavy task is ranked by what is left of its class's chain (the run cannot end before
 * that chain does), a light one by its own time, and the highest rank starts (ties in `waiting`'s
 * order; tasks never timed rank highest). Without `durations`, the first startable task in `waiting`.
 */
export function nextStartable(waiting: readonly Task[], running: readonly Task[], durations: Readonly<Record<string, number>> = {}): Task | undefined {
  const busy = new Set(running.map((task) => task.heavy).filter((c) => c !== null));
  const startable = waiting.filter((task) => task.heavy === null || !busy.has(task.heavy));
  const known = (task: Task) => durations[task.id] ?? Number.POSITIVE_INFINITY;
  const chain = new Map<string, number>();
  for (const task of waiting) if (task.heavy !== null) chain.set(task.heavy, (chain.get(task.heavy) ?? 0) + known(task));
  const rank = (task: Task) => (task.heavy === null ? known(task) : chain.get(task.heavy)!);
  return startable.reduce<Task | undefined>((best, task) => (best === undefined || rank(task) > rank(best) ? task : best), undefined);
}

/** Test counts from vitest's closing lines ("Tests  2 failed | 515 passed | 3 skipped (520)"), summed over every run in `output`. */
export function vitestCounts(output: string): { passed: number; failed: number; skipped: number } {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  for (const line of plain.split('\n')) {
    const match = /^\s*Tests\s+(.*)\(\d+\)\s*$/.exec(line);
    if (!match) continue;
    for (const part of match[1]!.split('|')) {
      const item = /(\d+)\s+(passed|failed|skipped|todo)/.exec(part);
      if (!item) continue;
      const key = item[2] === 'todo' ? 'skipped' : (item[2] as keyof typeof counts);
      counts[key] += Number(item[1]);
    }
  }
  return counts;
}

/** `m:ss` for a wall time in milliseconds. */
export function clock(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * The CPU seconds of a task's processes from bash's `times` (its second line: the user and system
 * time of every child the shell waited for, and so of their waited-for descendants), or null.
 */
export function childCpuSeconds(times: string): number | null {
  const line = times.trim().split('\n')[1];
  const parts = line ? [...line.matchAll(/(\d+)m([\d.]+)s/g)] : [];
  if (parts.length !== 2) return null;
  return parts.reduce((sum, [, minutes, seconds]) => sum + Number(minutes) * 60 + Number(seconds), 0);
}

/** Busy and total core-time (in clock ticks) from the first line of /proc/stat (idle and iowait count as not busy). */
export function cpuTicks(procStat: string): { busy: number; total: number } | null {
  const fields = /^cpu\s+(.*)$/m.exec(procStat)?.[1]?.trim().split(/\s+/).map(Number);
  if (!fields || fields.length < 5 || fields.some((n) => !Number.isFinite(n))) return null;
  // user nice system idle iowait irq softirq steal (guest time is already inside user)
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - fields[3]! - fields[4]!, total };
}

