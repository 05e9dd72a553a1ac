// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useSubmitOnce } from '../src/ui/use-submit-once.ts';

describe('useSubmitOnce (spec §4: submitting while a change is pending is ignored)', () => {
  it('runs one submit at a time, busy until it settles, and allows the next one after', async () => {
    const { result } = renderHook(() => useSubmitOnce());
    let calls = 0;
    let finish!: () => void;
    const work = () => {
      calls += 1;
      return new Promise<void>((resolve) => (finish = resolve));
    };
    let first!: Promise<void>;
    act(() => {
      first = result.current.run(work);
      void result.current.run(work); // a double click lands before React re-renders
    });
    expect(calls).toBe(1);
    expect(result.current.busy).toBe(true);
    expect(result.current.isPending()).toBe(true);
    await act(async () => {
      finish();
      await first;
    });
    expect(result.current.busy).toBe(false);
    await act(() => result.current.run(async () => void (calls += 1)));
    expect(calls).toBe(2);
  });

  it('is free again after a submit that failed', async () => {
    const { result } = renderHook(() => useSubmitOnce());
    await act(async () => {
      await expect(result.current.run(() => Promise.reject(new Error('network')))).rejects.toThrow('network');
    });
    expect(result.current.isPending()).toBe(false);
    expect(result.current.busy).toBe(false);
  });
});
