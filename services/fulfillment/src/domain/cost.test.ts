import { describe, expect, it } from 'vitest';
import { balanceState, chargeCostDeci } from './cost.ts';

describe('provider cost', () => {
  it('converts a charge at the exchange rate, exactly, rounding half up', () => {
    expect(chargeCostDeci('1200', 10)).toEqual({ text: '1200', costDeci: 12_000 });
    expect(chargeCostDeci('0.1', 10)).toEqual({ text: '0.1', costDeci: 1 });
    expect(chargeCostDeci('1.25', 13_500)?.costDeci).toBe(16_875);
    expect(chargeCostDeci('0.00005', 10_000)?.costDeci).toBe(1); // 0.5 deci-won → 1
    expect(chargeCostDeci(2.5, 10)?.costDeci).toBe(25);
  });
  it('refuses what is not a non-negative decimal', () => {
    for (const bad of ['-1', 'abc', '', null, undefined, '1e5', {}]) expect(chargeCostDeci(bad, 10)).toBeUndefined();
  });
  it('judges a balance against its threshold, or 10,000 won when the threshold is off', () => {
    expect(balanceState('-0.01', '0', 10)).toBe('negative');
    expect(balanceState('9999', '0', 10)).toBe('low');
    expect(balanceState('10000', '0', 10)).toBe('ok');
    expect(balanceState('7.5', '0', 13_500)).toBe('ok'); // 7.5 × 1,350원 = 10,125원
    expect(balanceState('7', '0', 13_500)).toBe('low'); // 9,450원
    expect(balanceState('50', '100', 10)).toBe('low');
    expect(balanceState('50', '20', 10)).toBe('ok');
    expect(balanceState(null, '0', 10)).toBeNull();
  });
});

describe('fault text', () => {
  it('says transport failures in Korean and leaves a provider’s own words alone', async () => {
    const { faultText } = await import('./fault-text.ts');
    expect(faultText('network error')).toBe('네트워크 오류');
    expect(faultText('ECONNREFUSED')).toBe('연결 거부');
    expect(faultText('HTTP 502: not JSON')).toBe('HTTP 502 응답(JSON 아님)');
    expect(faultText('Not enough funds on balance')).toBe('Not enough funds on balance');
  });
});
