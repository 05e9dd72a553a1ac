import { describe, expect, it } from 'vitest';
import { kstDateTime, restrictionBlocks, restrictionMessage } from '../src/restriction.ts';

describe('restrictions', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  it('blocks while a suspension lasts and for a ban; a warning never', () => {
    expect(restrictionBlocks({ level: 'suspended', reason: 'x', until: '2026-11-24T12:00:01Z' }, now)).toBe(true);
    expect(restrictionBlocks({ level: 'suspended', reason: 'x', until: '2026-11-24T12:00:00Z' }, now)).toBe(false);
    expect(restrictionBlocks({ level: 'banned', reason: 'x', until: null }, now)).toBe(true);
    expect(restrictionBlocks({ level: 'warning', reason: 'x', until: null }, now)).toBe(false);
    expect(restrictionBlocks(null, now)).toBe(false);
  });
  it('tells level, reason and the end in KST', () => {
    expect(kstDateTime('2026-12-31T15:30:05Z')).toBe('2027-01-01 00:30:05 KST');
    expect(restrictionMessage({ level: 'suspended', reason: '도배', until: '2026-12-31T15:30:05Z' })).toBe('이용이 정지된 계정입니다(기간 정지, 2027-01-01 00:30:05 KST까지). 사유: 도배');
    expect(restrictionMessage({ level: 'banned', reason: '도용', until: null })).toBe('이용이 영구 정지된 계정입니다. 사유: 도용');
  });
});
