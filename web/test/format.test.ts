import { describe, expect, it } from 'vitest';
import { toggleOpen } from '../src/features/qna/accordion.ts';
import { groupPrices } from '../src/features/price-list/price-list.ts';
import { count, dateTime, fromKstDateTimeInput, grouped, kstDateTimeInput, startCount, won } from '../src/lib/format.ts';
import type { Category, Platform, Service } from '../src/lib/types.ts';

describe('Korean formats (spec §9)', () => {
  it('money: thousands separators, 0–1 fraction digits, 원', () => {
    expect(won(12340)).toBe('1,234원');
    expect(won(125)).toBe('12.5원');
    expect(won(0)).toBe('0원');
    expect(count(1000000)).toBe('1,000,000');
  });

  it('hand-made grouping prints what toLocaleString(ko-KR) prints', () => {
    const values = [0, 1, 12, 123, 1234, 12345, 123456, 1234567, 999999999, 1000000000, -1, -1234, -9876543, 12.5, 1234.56, -0.25, Number.MAX_SAFE_INTEGER];
    for (const value of values) expect(grouped(value)).toBe(value.toLocaleString('ko-KR', { maximumFractionDigits: 1 }));
    for (let deci = -20_000; deci <= 2_000_000; deci += 997) expect(won(deci)).toBe(`${deci < 0 ? '-' : ''}${Math.trunc(Math.abs(deci) / 10).toLocaleString('ko-KR')}${Math.abs(deci) % 10 ? `.${Math.abs(deci) % 10}` : ''}원`);
  });

  it('dates: yyyy-mm-dd hh:mm:ss in Korean time whatever the input zone', () => {
    expect(dateTime('2026-11-22T15:04:05.000Z')).toBe('2026-11-23 00:04:05');
    expect(dateTime('2026-01-01T00:00:00+09:00')).toBe('2026-01-01 00:00:00');
    expect(dateTime(null)).toBe('');
    expect(dateTime('not a date')).toBe('');
  });

  it('a datetime-local value is Korean time both ways, whatever the browser zone', () => {
    expect(kstDateTimeInput(new Date('2026-12-01T15:30:45Z'))).toBe('2026-12-02T00:30');
    expect(fromKstDateTimeInput('2026-12-02T00:30')).toBe('2026-12-02T00:30:00+09:00');
    expect(new Date(fromKstDateTimeInput('2026-12-02T00:30')).toISOString()).toBe('2026-12-01T15:30:00.000Z');
  });

  it('a negative or non-numeric start count is shown blank', () => {
    expect(startCount(-1)).toBe('');
    expect(startCount(null)).toBe('');
    expect(startCount('12')).toBe('');
    expect(startCount(1200)).toBe('1,200');
    expect(startCount(0)).toBe('0');
  });
});

describe('FAQ accordion (spec §2)', () => {
  it('opens one at a time and closes the open one when clicked again', () => {
    expect(toggleOpen(null, 2)).toBe(2);
    expect(toggleOpen(2, 3)).toBe(3);
    expect(toggleOpen(3, 3)).toBeNull();
  });
});

describe('price list grouping', () => {
  const platforms: Platform[] = [
    { id: 1, text: '인스타그램', icon: 'instagram', visible: true, background: '#E1306C' },
    { id: 2, text: '유튜브', icon: 'youtube', visible: true, background: '#FF0000' },
    { id: 8, text: '카카오스토리', icon: 'kakaostory', visible: false, background: '#FFCD00' },
  ];
  const categories: Category[] = [
    { id: 11, text: '좋아요', platform: 1, platformId: 1 },
    { id: 12, text: '팔로워', platform: 1, platformId: 1 },
    { id: 13, text: '조회수', platform: 2, platformId: 2 },
    { id: 14, text: '좋아요', platform: 8, platformId: 8 },
  ];
  const svc = (id: number, categoryId: number, platformId: number, text: string): Service => ({ id, text, categoryId, platformId, min: 10, max: 100, point: 1, unitPriceDeci: 10, notice: '', enableAuto: false, isReadOnly: false });
  const services = [svc(101, 11, 1, '한국인 좋아요'), svc(102, 12, 1, '한국인 팔로워'), svc(103, 14, 8, '스토리 좋아요')];

  it('groups visible services by platform then category and drops empty groups and hidden platforms', () => {
    const groups = groupPrices(platforms, categories, services);
    expect(groups.map((g) => [g.platform.id, g.categories.map((c) => c.category.id)])).toEqual([[1, [11, 12]]]);
  });

  it('filters by a search word', () => {
    expect(groupPrices(platforms, categories, services, '팔로워')[0]?.categories.map((c) => c.category.id)).toEqual([12]);
  });
});
