import { describe, expect, it } from 'vitest';
import { expectedRefundDeci } from '../src/features/history/refund.ts';

describe('the refund an auto-order cancel states', () => {
  it('is the charge of the runs not yet placed', () => {
    // 3 runs charged 750 deci-won (75원): one placed, two come back
    expect(expectedRefundDeci({ chargeDeci: 750, runs: 3, completed: 1 })).toBe(500);
    expect(expectedRefundDeci({ chargeDeci: 750, runs: 3, completed: 0 })).toBe(750);
    expect(expectedRefundDeci({ chargeDeci: 750, runs: 3, completed: 3 })).toBe(0);
  });

  it('is unknown when the list did not say what was charged', () => {
    expect(expectedRefundDeci({ runs: 3, completed: 1 })).toBeNull();
  });
});
