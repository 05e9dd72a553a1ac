import { describe, expect, it } from 'vitest';
import { reorderSlots } from './reorder.ts';

describe('reorder', () => {
  it('permutes the listed items among the positions they held', () => {
    const result = reorderSlots(
      [
        { id: 1, sortOrder: 3 },
        { id: 2, sortOrder: 7 },
        { id: 3, sortOrder: 9 },
      ],
      [3, 1, 2],
    );
    expect(result.ok && Object.fromEntries(result.order)).toEqual({ 3: 3, 1: 7, 2: 9 });
  });

  it('refuses an empty list and duplicates', () => {
    expect(reorderSlots([], [])).toMatchObject({ ok: false, problem: { code: 'REORDER_EMPTY' } });
    expect(reorderSlots([{ id: 1, sortOrder: 1 }], [1, 1])).toMatchObject({ ok: false, problem: { code: 'REORDER_DUPLICATE' } });
  });
});
