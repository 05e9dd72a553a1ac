import { describe, expect, it } from 'vitest';
import { isPlatformId, platformIcon, platformIcons } from './platform-icons.ts';

describe('platform ids', () => {
  it('are exactly 1–14, each with its own icon', () => {
    expect(Object.keys(platformIcons).map(Number)).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    expect(new Set(Object.values(platformIcons)).size).toBe(14);
    expect([0, 15, 1.5, -1].some(isPlatformId)).toBe(false);
    expect(isPlatformId(14)).toBe(true);
    expect(platformIcon(1)).toBe('instagram');
  });
});
