import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { everySecond, followUp } from '../src/lib/follow-up.ts';

describe('followUp (bounded re-reads after an asynchronous change)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('checks at each delay until the check answers true, then stops', async () => {
    const answers = [false, false, true, false];
    const check = vi.fn(() => answers.shift() ?? false);
    followUp(check, [0, 1000, 3000, 6000]);
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(check).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(check).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(check).toHaveBeenCalledTimes(3);
  });

  it('gives up after the last delay, counts a failing check as "not yet", and can be cancelled', async () => {
    const failing = vi.fn(async () => {
      throw new Error('offline');
    });
    followUp(failing, everySecond(3));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(failing).toHaveBeenCalledTimes(3);

    const check = vi.fn(() => false);
    const stop = followUp(check, everySecond(10));
    await vi.advanceTimersByTimeAsync(2000);
    stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(check).toHaveBeenCalledTimes(2);
  });

  it('everySecond lists 1 s … n s', () => {
    expect(everySecond(3)).toEqual([1000, 2000, 3000]);
  });
});
