import { describe, expect, it } from 'vitest';
import { parseUnitPrice, unitPriceWon } from './price.ts';

describe('unit price', () => {
  it.each([
    ['2.5', 25],
    [2.5, 25],
    ['3', 30],
    [45, 450],
    ['0.1', 1],
    [' 12.0 ', 120],
    ['1000000', 10_000_000],
  ])('reads %j as %i deci-won exactly', (input, deci) => {
    expect(parseUnitPrice(input)).toEqual({ ok: true, deci });
  });

  it.each([['2.55'], [0.15], ['0'], [0], ['-1'], [-2.5], ['1e3'], [''], ['abc'], [Number.NaN], [null], [true], [{}]])('refuses %j as an invalid price', (input) => {
    expect(parseUnitPrice(input)).toMatchObject({ ok: false, problem: { code: 'INVALID_PRICE' } });
  });

  it('refuses prices above 1,000,000 won', () => {
    expect(parseUnitPrice('1000000.1')).toMatchObject({ ok: false, problem: { code: 'PRICE_TOO_HIGH' } });
  });

  it('shows deci-won as won with one decimal digit at most', () => {
    expect(unitPriceWon(25)).toBe(2.5);
    expect(unitPriceWon(450)).toBe(45);
    expect(unitPriceWon(1)).toBe(0.1);
  });
});
