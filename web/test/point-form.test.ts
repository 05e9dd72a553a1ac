import { describe, expect, it } from 'vitest';
import { pointText as t } from '../src/features/point/messages.ts';
import { addAmount, changeReceiptType, emptyTopUp, isMobile, quickAdds, resetAmount, topUpPayload, tossLink, transferAmount, validateTopUp } from '../src/features/point/point-form.ts';

describe('top-up form (spec §2, §4, §5, §9)', () => {
  it('quick-add buttons add 5,000 / 10,000 / 50,000 / 100,000 and reset goes back to 0', () => {
    expect(quickAdds).toEqual([5000, 10000, 50000, 100000]);
    const form = quickAdds.reduce((f, n) => addAmount(f, n), emptyTopUp);
    expect(form.point).toBe(165000);
    expect(resetAmount(form).point).toBe(0);
  });

  it('changing the receipt type clears the receipt details', () => {
    const withFee = { ...emptyTopUp, feeType: 'fee' as const, feeValue: { company: '그로우', phone: '01012345678' } };
    expect(changeReceiptType(withFee, 'cash')).toMatchObject({ feeType: 'cash', feeValue: {} });
  });

  it('a tax invoice adds 10 % only when the payment-fee setting is on', () => {
    expect(transferAmount(50000, 'fee', true)).toBe(55000);
    expect(transferAmount(50000, 'fee', false)).toBe(50000);
    expect(transferAmount(50000, 'cash', true)).toBe(50000);
    expect(transferAmount(50000, 'none', true)).toBe(50000);
  });

  it('checks the depositor first, then a non-zero multiple of 5,000 won', () => {
    expect(validateTopUp({ ...emptyTopUp, point: 7000 })?.message).toBe(t.depositorRequired);
    expect(validateTopUp({ ...emptyTopUp, name: '  ', point: 5000 })?.message).toBe(t.depositorRequired);
    expect(validateTopUp({ ...emptyTopUp, name: '홍길동', point: 0 })?.message).toBe(t.pointInvalid);
    expect(validateTopUp({ ...emptyTopUp, name: '홍길동', point: 7000 })?.message).toBe(t.pointInvalid);
    expect(validateTopUp({ ...emptyTopUp, name: '홍길동', point: 15000 })).toBeNull();
  });

  it('checks the chosen receipt’s details', () => {
    const base = { ...emptyTopUp, name: '홍길동', point: 10000 };
    expect(validateTopUp({ ...base, feeType: 'cash', feeValue: {} })?.field).toBe('phone');
    expect(validateTopUp({ ...base, feeType: 'cash', feeValue: { phone: '010-1234-5678' } })).toBeNull();
    expect(validateTopUp({ ...base, feeType: 'fee', feeValue: {} })?.field).toBe('company');
    expect(validateTopUp({ ...base, feeType: 'fee', feeValue: { company: 'A', businessNumber: '123' } })?.field).toBe('businessNumber');
    const complete = { company: 'A', businessNumber: '123-45-67890', leader: '홍길동', phone: '0212345678', email: 'a@b.kr' };
    expect(validateTopUp({ ...base, feeType: 'fee', feeValue: complete })).toBeNull();
    expect(topUpPayload({ ...base, feeType: 'fee', feeValue: complete }).feeValue).toMatchObject({ businessNumber: '1234567890' });
  });

  it('builds the Toss deep link with the amount, the account number without hyphens, the bank code and a fixed amount', () => {
    const link = new URL(tossLink(55000, '123456-01-234567', '004'));
    expect(link.protocol).toBe('supertoss:');
    expect(Object.fromEntries(link.searchParams)).toEqual({ amount: '55000', accountNo: '12345601234567', bankCode: '004', isAmountFixed: 'true' });
  });

  it('detects mobile by user agent', () => {
    expect(isMobile('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')).toBe(true);
    expect(isMobile('Mozilla/5.0 (Linux; Android 14; SM-S918N)')).toBe(true);
    expect(isMobile('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130')).toBe(false);
  });
});
