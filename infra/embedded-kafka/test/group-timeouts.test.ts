// The coordinator's timeouts are due times, not a poll (issue 42, "idle means asleep"): with no
// member whose session can run out it holds no timer at all; a member that stops heartbeating is
// still expelled at its session timeout, and a heartbeat moves that time. Node's timers and clock
// are vitest's fake ones, so the test can count the timers and step the clock exactly.
import pino from 'pino';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { GroupCoordinator } from '../src/groups/coordinator.ts';
import { ErrorCode } from '../src/protocol/error-codes.ts';

const logger = pino({ level: 'silent' });
const protocols = [{ name: 'roundrobin', metadata: Buffer.from('m') }];
const join = (c: GroupCoordinator, memberId = '', sessionTimeoutMs = 10_000) =>
  c.join('g', { memberId, clientId: 'c', clientHost: '/127.0.0.1', sessionTimeoutMs, rebalanceTimeoutMs: 5_000, protocolType: 'consumer', protocols });
const members = (c: GroupCoordinator) => c.describe('g')?.members.map((m) => m.memberId) ?? [];

let coordinator: GroupCoordinator;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  coordinator = new GroupCoordinator(logger);
});
afterEach(() => {
  coordinator.close();
  vi.useRealTimers();
});

it('holds no timer while no group has a member', async () => {
  expect(vi.getTimerCount()).toBe(0);
  const joined = await join(coordinator);
  expect(joined.error).toBe(ErrorCode.None);
  // One member: its session end is due work.
  expect(vi.getTimerCount()).toBe(1);
  expect(coordinator.leave('g', joined.memberId)).toBe(ErrorCode.None);
  expect(members(coordinator)).toEqual([]);
  expect(vi.getTimerCount()).toBe(0);
});

it('expels a member at its session timeout, counted from its last heartbeat, and then sleeps', async () => {
  const joined = await join(coordinator);
  const synced = await coordinator.sync('g', joined.memberId, joined.generationId, [{ memberId: joined.memberId, assignment: Buffer.from('a') }]);
  expect(synced.error).toBe(ErrorCode.None);
  expect(coordinator.describe('g')?.state).toBe('Stable');

  await vi.advanceTimersByTimeAsync(9_000);
  expect(coordinator.heartbeat('g', joined.memberId, joined.generationId)).toBe(ErrorCode.None);
  // 10 s after the join, but only 1 s after the heartbeat: still a member.
  await vi.advanceTimersByTimeAsync(1_500);
  expect(members(coordinator)).toEqual([joined.memberId]);
  // 10 s after the heartbeat it is gone, and the empty group leaves nothing to wait for.
  await vi.advanceTimersByTimeAsync(8_600);
  expect(members(coordinator)).toEqual([]);
  expect(coordinator.describe('g')?.state).toBe('Empty');
  expect(vi.getTimerCount()).toBe(0);
});

it('ends a rebalance at its timeout when a member does not rejoin', async () => {
  const first = await join(coordinator);
  await coordinator.sync('g', first.memberId, first.generationId, [{ memberId: first.memberId, assignment: Buffer.from('a') }]);
  // A second member starts a rebalance; the first never rejoins (it keeps no heartbeat either).
  let second: { memberId: string; generationId: number } | undefined;
  void Promise.resolve(join(coordinator)).then((r) => (second = r));
  await vi.advanceTimersByTimeAsync(4_900);
  expect(second).toBeUndefined();
  expect(coordinator.describe('g')?.state).toBe('PreparingRebalance');
  // The rebalance timeout (5 s) ends it: the first member is dropped, the second leads.
  await vi.advanceTimersByTimeAsync(200);
  expect(second?.generationId).toBeGreaterThan(first.generationId);
  expect(members(coordinator)).toEqual([second!.memberId]);
});
