import { describe, expect, it } from 'vitest';
import { deciToWon, formatWon, parseWon, priceDeci } from '../src/index.ts';

describe('money in deci-won', () => {
  it.each([
    ['12', 120],
    ['12.5', 125],
    [12.5, 125],
    [0.1, 1],
    ['1000000', 10_000_000],
  ])('parses %j exactly', (input, deci) => {
    expect(parseWon(input)).toBe(deci);
  });

  it.each(['12.55', '-1', 'abc', '', '1e3', Number.NaN, 0.15])('refuses %j', (input) => {
    expect(parseWon(input)).toBeUndefined();
  });

  it('multiplies without floating-point drift', () => {
    // 0.1 × 3 in floats is 0.30000000000000004; in deci-won it is 3.
    expect(priceDeci(1, 3)).toBe(3);
    expect(deciToWon(priceDeci(1, 3))).toBe(0.3);
    expect(priceDeci(25, 1_000)).toBe(25_000);
    expect(() => priceDeci(Number.MAX_SAFE_INTEGER, 2)).toThrow(RangeError);
  });

  it('formats as the spec shows money', () => {
    expect(formatWon(12_340)).toBe('1,234원');
    expect(formatWon(12_345)).toBe('1,234.5원');
    expect(formatWon(0)).toBe('0원');
  });
});
