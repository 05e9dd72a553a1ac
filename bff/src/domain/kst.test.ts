import { describe, expect, it } from 'vitest';
import { kstDateTime, kstDayRange, kstDays, kstWeekOf } from './kst.ts';

describe('KST', () => {
  it('writes yyyy-mm-dd hh:mm:ss in Korean time', () => {
    expect(kstDateTime('2026-12-05T15:00:00.000Z')).toBe('2026-12-06 00:00:00');
    expect(kstDateTime('2026-12-31T23:59:59Z')).toBe('2027-01-01 08:59:59');
    expect(kstDateTime(null)).toBe('');
    expect(kstDateTime('nope')).toBe('');
  });
  it('turns KST days into an instant range, both days included', () => {
    expect(kstDayRange('2026-12-01', '2026-12-01')).toEqual({ from: new Date('2026-11-30T15:00:00Z'), to: new Date('2026-12-01T15:00:00Z') });
    expect(kstDayRange(undefined, '2026-12-01')).toEqual({ from: null, to: new Date('2026-12-01T15:00:00Z') });
    expect(kstDayRange('2026-02-30', undefined)).toBeNull();
    expect(kstDayRange('2026-12-02', '2026-12-01')).toBeNull();
  });
  it('names the Monday of a KST week and lists days', () => {
    expect(kstWeekOf('2026-12-06')).toBe('2026-11-30'); // a Sunday
    expect(kstWeekOf('2026-11-30')).toBe('2026-11-30');
    expect(kstDays('2026-12-30', '2027-01-02')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
  });
});
