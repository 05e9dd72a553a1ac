import { describe, expect, it } from 'vitest';
import { childCpuSeconds, cpuTicks, longestFirst, nextStartable, vitestCounts } from './schedule.ts';
import type { Task } from './tasks.ts';

const task = (id: string, heavy: string | null = null): Task => ({ id, cwd: '.', command: ['true'], heavy });

describe('the test run schedule', () => {
  it('offers never-timed tasks first, then the longest, ties in discovery order', () => {
    const tasks = [task('a'), task('b'), task('new'), task('c'), task('d')];
    const order = longestFirst(tasks, { a: 10, b: 300, c: 300, d: 5 }).map((t) => t.id);
    expect(order).toEqual(['new', 'b', 'c', 'a', 'd']);
  });

  it('starts a heavy task only while no task of its class runs, and passes it over for a light one', () => {
    const waiting = [task('e2e', 'stack'), task('lint')];
    expect(nextStartable(waiting, [task('backup', 'stack')])?.id).toBe('lint');
    expect(nextStartable(waiting, [task('unit')])?.id).toBe('e2e');
    expect(nextStartable(waiting, [task('recovery', 'crash')])?.id).toBe('e2e');
    expect(nextStartable([task('e2e', 'stack')], [task('backup', 'stack')])).toBeUndefined();
  });

  it("keeps a heavy class's chain going: its next task is ranked by what is left of the chain", () => {
    const waiting = [task('wallet'), task('bff-e2e', 'stack'), task('backup', 'stack'), task('lint')];
    const durations = { wallet: 240, 'bff-e2e': 160, backup: 100, lint: 20 };
    // 160 + 100 left of the stack chain outrank the 240 of the longest light task.
    expect(nextStartable(waiting, [], durations)?.id).toBe('bff-e2e');
    expect(nextStartable(waiting, [task('web-e2e', 'stack')], durations)?.id).toBe('wallet');
    expect(nextStartable([task('wallet'), task('backup', 'stack')], [], durations)?.id).toBe('wallet');
  });

  it("sums vitest's closing lines over every run in a task's output", () => {
    const output = ['      Tests  2 failed | 515 passed | 3 skipped (520)', 'noise Tests 9 passed', '\u001b[2m      Tests \u001b[22m 4 passed\u001b[39m (4)', '      Tests  1 passed | 1 todo (2)'].join('\n');
    expect(vitestCounts(output)).toEqual({ passed: 520, failed: 2, skipped: 4 });
  });

  it("reads a task's CPU time from bash's times and the machine's from /proc/stat", () => {
    expect(childCpuSeconds('0m0.004s 0m0.002s\n1m2.500s 0m7.250s\n')).toBeCloseTo(69.75);
    expect(childCpuSeconds('')).toBeNull();
    expect(cpuTicks('cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n')).toEqual({ busy: 160, total: 1000 });
    expect(cpuTicks('intr 1 2 3')).toBeNull();
  });
});
