import { describe, expect, it } from 'vitest';
import { changesOf } from '../src/features/admin/audit/describe-change.ts';

const row = (over: Record<string, unknown>) =>
  ({
    id: 'a1',
    at: '2026-12-06T00:00:00.000Z',
    actor: { userId: 'op', loginId: 'admin', role: 'admin' },
    service: 'x',
    action: 'auth.member.restriction',
    target: { type: 'member', id: 'u-1', loginId: 'kim01' },
    before: {},
    after: {},
    beneficiary: null,
    ...over,
  }) as Parameters<typeof changesOf>[0];

describe('audit values in Korean (issue 41)', () => {
  it('restriction level and end', () => {
    const changes = changesOf(row({ before: { level: null }, after: { level: 'suspended', until: '2026-12-31T15:00:00.000Z' } }));
    expect(changes).toEqual([
      { field: 'level', label: '제재 단계', before: '없음', after: '기간 정지' },
      { field: 'until', label: '정지 종료', before: null, after: '2027-01-01 00:00:00' },
    ]);
    expect(changesOf(row({ before: { level: 'warning' }, after: { level: 'banned' } }))[0]).toMatchObject({ before: '경고', after: '영구 정지' });
  });

  it("a deposit's status and its member by login id, not UUID", () => {
    const changes = changesOf(
      row({
        action: 'wallet.deposit.attach',
        target: { type: 'deposit', id: 'd-1', loginId: null },
        before: { status: 'unmatched', userId: null },
        after: { status: 'attached', userId: '3f1c2b9e-0000-4000-8000-000000000001' },
        memberLogins: { '3f1c2b9e-0000-4000-8000-000000000001': 'lee02' },
      }),
    );
    expect(changes).toEqual([
      { field: 'status', label: '상태', before: '연결 안 됨', after: '직접 연결' },
      { field: 'userId', label: '회원', before: '없음', after: 'lee02' },
    ]);
  });

  it("a provider's rate of 1 won reads 1원, not 10", () => {
    const [rate] = changesOf(row({ action: 'fulfillment.provider.update', target: { type: 'provider', id: '1', loginId: null }, before: { wonDeciPerUnit: 13_500 }, after: { wonDeciPerUnit: 10 } }));
    expect(rate).toEqual({ field: 'wonDeciPerUnit', label: '환율 (1단위당)', before: '1,350원', after: '1원' });
  });

  it("an operator's role and areas", () => {
    const changes = changesOf(row({ action: 'auth.operator.access', target: { type: 'operator', id: 'o', loginId: 'staff1' }, before: { role: 'staff', areas: ['top-ups'] }, after: { role: 'admin', areas: ['top-ups', 'review'] } }));
    expect(changes).toEqual([
      { field: 'role', label: '권한', before: '스태프', after: '관리자' },
      { field: 'areas', label: '담당 메뉴', before: '충전 요청', after: '충전 요청, 전달 확인' },
    ]);
  });
});
