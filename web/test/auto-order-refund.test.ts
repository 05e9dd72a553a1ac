import { describe, expect, it } from 'vitest';
import { expectedRefundDeci } from '../src/features/history/refund.ts';

describe('the refund an auto-order cancel states', () => {
  it('is the charge of the runs not yet placed', () => {
    // 3 runs charged 750 deci-won (75원): one placed, two come back
    expect(expectedRefundDeci({ chargeDeci: 750, runs: 3, completed: 1 })).toBe(500);
    expect(expectedRefundDeci({ chargeDeci: 750, runs: 3, completed: 0 })).toBe(750);
    expect(expectedRefundDeci({ chargeDeci: 750, runs: 3, completed: 3 })).toBe(0);
  });

  it('leaves the rounding remainder with the runs placed', () => {
    // 1,001 deci-won over 3 runs: 333 a run, one placed, two come back (666)
    expect(expectedRefundDeci({ chargeDeci: 1001, runs: 3, completed: 1 })).toBe(666);
  });

  it('is nothing once every run is placed or when there are no runs', () => {
    expect(expectedRefundDeci({ chargeDeci: 750, runs: 3, completed: 4 })).toBe(0);
    expect(expectedRefundDeci({ chargeDeci: 750, runs: 0, completed: 0 })).toBe(0);
  });
});
