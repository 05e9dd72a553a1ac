import { describe, expect, it } from 'vitest';
import { auditDiff, auditFields } from '../src/mongo/operator-audit.ts';

describe('audit diffs', () => {
  it('keep only the named fields that changed, dates as ISO text and absent values as null', () => {
    const at = new Date('2026-11-24T01:02:03.000Z');
    const before = { status: 0, remains: 100, note: 'x', at: null as Date | null, secretKey: 'k1' };
    const after = { status: 1, remains: 100, note: 'x', at, secretKey: 'k2' };
    expect(auditDiff(before, after, ['status', 'remains', 'note', 'at'])).toEqual({ before: { status: 0, at: null }, after: { status: 1, at: at.toISOString() } });
    expect(auditDiff(before, before, ['status', 'remains'])).toEqual({ before: {}, after: {} });
    expect(auditFields({ a: 1, b: undefined as number | undefined, c: 3 }, ['a', 'b'])).toEqual({ a: 1, b: null });
  });

  it('compares nested values by content', () => {
    expect(auditDiff({ rule: { kind: 'markup', percent: 10 } }, { rule: { kind: 'markup', percent: 10 } }, ['rule'])).toEqual({ before: {}, after: {} });
    expect(auditDiff({ rule: { kind: 'markup', percent: 10 } }, { rule: { kind: 'markup', percent: 20 } }, ['rule']).after).toEqual({ rule: { kind: 'markup', percent: 20 } });
  });
});
