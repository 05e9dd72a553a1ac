import { describe, expect, it } from 'vitest';
import { AutoOrderStatus, ChargeStatus, OrderStatus, PaymentType, defineStatus, paymentTypeFilters, statusSchema, paymentTypeOf } from '../src/index.ts';

describe('status enumerations (spec §4)', () => {
  it('numbers order statuses 0–5 as the spec does', () => {
    expect(OrderStatus.values).toEqual({ PENDING: 0, IN_PROGRESS: 1, COMPLETED: 2, PARTIAL: 3, PROCESSING: 4, CANCELED: 5 });
    expect(AutoOrderStatus.values).toEqual({ ACTIVE: 0, COMPLETED: 1, CANCELED: 2, PARTIAL: 3 });
    expect(ChargeStatus.values).toEqual({ PENDING: 0, SUCCESS: 1, FAIL: 2 });
    expect(PaymentType.values).toEqual({ CASH: 0, FEE: 1, NONE: 2 });
  });

  it('labels statuses in Korean; partial auto orders read as completed', () => {
    expect(OrderStatus.label(2)).toBe('완료');
    expect(AutoOrderStatus.label(AutoOrderStatus.values.PARTIAL)).toBe(AutoOrderStatus.label(AutoOrderStatus.values.COMPLETED));
    expect(() => OrderStatus.label(9)).toThrow(RangeError);
  });

  it('validates exactly the defined numbers', () => {
    expect(statusSchema(OrderStatus).safeParse(5).success).toBe(true);
    expect(statusSchema(OrderStatus).safeParse(6).success).toBe(false);
    expect(statusSchema(OrderStatus).safeParse(1.5).success).toBe(false);
    expect(ChargeStatus.is('1')).toBe(false);
  });

  it('refuses a definition that reuses a number', () => {
    expect(() => defineStatus({ A: { value: 1, label: 'a' }, B: { value: 1, label: 'b' } })).toThrow('defined twice');
  });

  it('maps receipts to payment types and filters', () => {
    expect(paymentTypeOf('fee')).toBe(PaymentType.values.FEE);
    expect(paymentTypeOf('cash')).toBe(PaymentType.values.CASH);
    expect(paymentTypeOf('none')).toBe(PaymentType.values.NONE);
    expect(paymentTypeFilters.CASH_AND_FEE).toEqual([0, 1]);
  });
});
