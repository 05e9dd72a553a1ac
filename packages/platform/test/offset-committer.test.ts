// The offset committer's timer is set by work (issue 42, "idle means asleep"): a consumer that
// handled nothing since its last commit holds no timer; an offset handled is committed one interval
// later, and a failed commit is retried one interval after that. The consumer is a stand-in that
// records commitOffsets calls (kafkajs's own, not one of our services); timers and clock are
// vitest's fake ones, so the test counts the timers and steps the clock exactly.
import type { Consumer } from 'kafkajs';
import pino from 'pino';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { OffsetCommitter } from '../src/index.ts';

type Commit = Array<{ topic: string; partition: number; offset: string }>;
let commits: Commit[];
let failNext: boolean;
const consumer = {
  commitOffsets: async (positions: Commit) => {
    if (failNext) {
      failNext = false;
      throw new Error('coordinator not available');
    }
    commits.push(positions);
  },
} as unknown as Consumer;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  commits = [];
  failNext = false;
});
afterEach(() => vi.useRealTimers());

it('holds no timer while nothing was handled, and commits an interval after the first handled offset', async () => {
  const committer = new OffsetCommitter(consumer, pino({ level: 'silent' }));
  committer.start(1000);
  await vi.advanceTimersByTimeAsync(10_000);
  expect(vi.getTimerCount()).toBe(0);
  expect(commits).toEqual([]);

  committer.handled('t', 0, '41');
  await vi.advanceTimersByTimeAsync(400);
  committer.handled('t', 0, '42');
  expect(commits).toEqual([]);
  await vi.advanceTimersByTimeAsync(600);
  expect(commits).toEqual([[{ topic: 't', partition: 0, offset: '43' }]]);
  // Committed: asleep again.
  expect(vi.getTimerCount()).toBe(0);
  await committer.stop();
});

it('retries a failed commit one interval later, and commits what is left at stop', async () => {
  const committer = new OffsetCommitter(consumer, pino({ level: 'silent' }));
  committer.start(1000);
  failNext = true;
  committer.handled('t', 1, '7');
  await vi.advanceTimersByTimeAsync(1000);
  expect(commits).toEqual([]);
  await vi.advanceTimersByTimeAsync(1000);
  expect(commits).toEqual([[{ topic: 't', partition: 1, offset: '8' }]]);
  committer.handled('t', 1, '9');
  await committer.stop();
  expect(commits.at(-1)).toEqual([{ topic: 't', partition: 1, offset: '10' }]);
  expect(vi.getTimerCount()).toBe(0);
});
