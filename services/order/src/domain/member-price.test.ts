import { describe, expect, it } from 'vitest';
import { discountedDeci, memberUnitPriceDeci } from '@smm/contracts';
import { readRate } from './member-rate-rules.ts';

describe('member prices (issue 40)', () => {
  it('a discount is rounded up to the next 0.1 won in integers, never to 0 for a priced product', () => {
    expect(discountedDeci(25, 10)).toBe(23); // 2.25 won → 2.3
    expect(discountedDeci(100, 10)).toBe(90); // exact
    expect(discountedDeci(1, 99)).toBe(1); // 0.001 won → 0.1 won, never free
    expect(discountedDeci(0, 50)).toBe(0);
    expect(discountedDeci(10_000_000, 1)).toBe(9_900_000);
  });

  it("the product's own rate beats the rate for every product, and a rate never raises a price", () => {
    const rates = [
      { serviceId: null, discountPercent: 20, unitPriceDeci: null },
      { serviceId: 7, discountPercent: null, unitPriceDeci: 30 },
    ];
    expect(memberUnitPriceDeci(50, rates, 7)).toBe(30);
    expect(memberUnitPriceDeci(20, rates, 7)).toBe(20); // custom 3 won above a 2 won catalogue price
    expect(memberUnitPriceDeci(50, rates, 8)).toBe(40);
    expect(memberUnitPriceDeci(50, [], 8)).toBe(50);
  });

  it('reads a rate the way the console sends it', () => {
    expect(readRate({ discountPercent: '15' })).toEqual({ ok: true, rate: { serviceId: null, discountPercent: 15, unitPriceDeci: null } });
    expect(readRate({ serviceId: '3', unitPrice: '2.5' })).toEqual({ ok: true, rate: { serviceId: 3, discountPercent: null, unitPriceDeci: 25 } });
    expect(readRate({ serviceId: 3, unitPrice: 0.1, discountPercent: '' })).toEqual({ ok: true, rate: { serviceId: 3, discountPercent: null, unitPriceDeci: 1 } });
    expect(readRate({ discountPercent: '1e1' })).toMatchObject({ ok: false, problem: { code: 'RATE_PERCENT_INVALID' } });
  });
});
