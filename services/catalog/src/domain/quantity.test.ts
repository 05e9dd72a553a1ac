import { describe, expect, it } from 'vitest';
import { checkQuantityRange, maxQuantity } from './quantity.ts';

describe('quantity range', () => {
  it('accepts positive integers with min ≤ max', () => {
    expect(checkQuantityRange(10, 10000)).toBeUndefined();
    expect(checkQuantityRange(5, 5)).toBeUndefined();
    expect(checkQuantityRange(1, maxQuantity)).toBeUndefined();
  });

  it('refuses min above max', () => {
    expect(checkQuantityRange(101, 100)?.code).toBe('MIN_ABOVE_MAX');
  });

  it('refuses non-positive or fractional quantities', () => {
    expect(checkQuantityRange(0, 10)?.code).toBe('INVALID_MIN');
    expect(checkQuantityRange(1.5, 10)?.code).toBe('INVALID_MIN');
    expect(checkQuantityRange(1, 0)?.code).toBe('INVALID_MAX');
    expect(checkQuantityRange(1, 2.5)?.code).toBe('INVALID_MAX');
  });

  it('refuses quantities beyond the limit that keeps totals exact', () => {
    expect(checkQuantityRange(1, maxQuantity + 1)?.code).toBe('QUANTITY_TOO_LARGE');
  });
});
