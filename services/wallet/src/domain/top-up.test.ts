import { describe, expect, it } from 'vitest';
import { cancelProblem, decideTopUp, requestLimitProblem, transferDeciOf, validateTopUp } from './top-up.ts';

const invoice = { company: '스마일', businessNumber: '1234567890', leader: '김대표', phone: '0212345678', email: 'a@b.kr' };

describe('top-up rules', () => {
  it('adds exactly 10 % for a tax invoice only when the fee is enabled', () => {
    expect(transferDeciOf(50_000, 'fee', true)).toBe(55_000);
    expect(transferDeciOf(50_000, 'fee', false)).toBe(50_000);
    expect(transferDeciOf(50_000, 'cash', true)).toBe(50_000);
    expect(transferDeciOf(100_000_000, 'fee', true)).toBe(110_000_000);
  });

  it('accepts the 10,000,000-won maximum and digit strings, and refuses one step more', () => {
    expect(validateTopUp('u', { name: 'a', point: 10_000_000 }, false)).toMatchObject({ ok: true, draft: { pointDeci: 100_000_000 } });
    expect(validateTopUp('u', { name: 'a', point: ' 5000 ' }, false)).toMatchObject({ ok: true, draft: { pointDeci: 50_000 } });
    expect(validateTopUp('u', { name: 'a', point: 10_005_000 }, false)).toMatchObject({ ok: false, problem: { code: 'POINT_INVALID' } });
  });

  it('keeps only the chosen receipt’s fields, trimmed, and fingerprints what makes two requests identical', () => {
    const fee = validateTopUp('u', { name: ' a ', point: 5000, feeType: 'fee', feeValue: { ...invoice, company: ' 스마일 ', extra: 'x' } }, true);
    const same = validateTopUp('u', { name: 'a', point: '5000', feeType: 'fee', feeValue: invoice }, false);
    const other = validateTopUp('v', { name: 'a', point: 5000, feeType: 'fee', feeValue: invoice }, true);
    if (!fee.ok || !same.ok || !other.ok) throw new Error('expected valid requests');
    expect(fee.draft.feeValue).toEqual(invoice);
    expect(fee.draft.paymentType).toBe(1);
    expect(fee.draft.fingerprint).toBe(same.draft.fingerprint);
    expect(fee.draft.fingerprint).not.toBe(other.draft.fingerprint);
    const cash = validateTopUp('u', { name: 'a', point: 5000, feeType: 'cash', feeValue: { ...invoice, phone: '010-1234-5678' } }, true);
    expect(cash).toMatchObject({ ok: true, draft: { feeValue: { phone: '010-1234-5678' }, paymentType: 0 } });
    expect(validateTopUp('u', { name: 'a', point: 5000, feeType: 'none', feeValue: invoice }, true)).toMatchObject({ ok: true, draft: { feeValue: {}, paymentType: 2 } });
  });

  it('lets only a pending request be decided', () => {
    expect(decideTopUp({ status: 0 }, 'approve')).toEqual({ ok: true, status: 1 });
    expect(decideTopUp({ status: 0 }, 'reject')).toEqual({ ok: true, status: 2 });
    expect(decideTopUp({ status: 0 }, 'expire')).toEqual({ ok: true, status: 2 });
    for (const status of [1, 2]) expect(decideTopUp({ status }, 'approve')).toMatchObject({ ok: false, problem: { code: 'TOPUP_NOT_PENDING' } });
  });

  it('lets only the member who asked cancel, only while pending; cancels count toward the hold (issue 40)', () => {
    expect(cancelProblem({ status: 0, userId: 'u1' }, 'u1')).toBeNull();
    expect(cancelProblem({ status: 0, userId: 'u1' }, 'u2')).toMatchObject({ status: 404, problem: { code: 'TOPUP_NOT_FOUND' } });
    expect(cancelProblem(null, 'u1')).toMatchObject({ status: 404 });
    for (const status of [1, 2]) expect(cancelProblem({ status, userId: 'u1' }, 'u1')).toMatchObject({ status: 409, problem: { code: 'TOPUP_NOT_PENDING' } });
    // The store counts expiries and member cancels together as `expiredRecently`: three hold.
    expect(requestLimitProblem({ open: 0, lastHour: 0, expiredRecently: 3 }, { openLimit: undefined, hourlyLimit: undefined })).toMatchObject({ code: 'TOPUP_HELD' });
  });
});
