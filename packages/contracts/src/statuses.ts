import { z } from 'zod';
import { defineStatus } from './status.ts';

/** Spec §4 order status. 3 and 5 carry refunds: the unworked part, or everything. */
export const OrderStatus = defineStatus({
  PENDING: { value: 0, label: '주문 접수' },
  IN_PROGRESS: { value: 1, label: '진행중' },
  COMPLETED: { value: 2, label: '완료' },
  PARTIAL: { value: 3, label: '부분 완료' },
  PROCESSING: { value: 4, label: '처리 대기' },
  CANCELED: { value: 5, label: '취소(전액 환불)' },
});

/** The English status names resellers' tools expect from the panel-standard API v2. */
export const orderStatusApiNames: Readonly<Record<number, string>> = {
  [OrderStatus.values.PENDING]: 'Pending',
  [OrderStatus.values.IN_PROGRESS]: 'In progress',
  [OrderStatus.values.COMPLETED]: 'Completed',
  [OrderStatus.values.PARTIAL]: 'Partial',
  [OrderStatus.values.PROCESSING]: 'Processing',
  [OrderStatus.values.CANCELED]: 'Canceled',
};

/** Spec §4 auto-order status; partial is shown to members as completed. */
export const AutoOrderStatus = defineStatus({
  ACTIVE: { value: 0, label: '진행중' },
  COMPLETED: { value: 1, label: '완료' },
  CANCELED: { value: 2, label: '취소' },
  PARTIAL: { value: 3, label: '완료' },
});

/** Spec §4 top-up (charge) request status. */
export const ChargeStatus = defineStatus({
  PENDING: { value: 0, label: '입금 대기' },
  SUCCESS: { value: 1, label: '충전 완료' },
  FAIL: { value: 2, label: '충전 실패' },
});

/** Spec §4 payment type of a top-up: which receipt was issued with it. */
export const PaymentType = defineStatus({
  CASH: { value: 0, label: '현금영수증' },
  FEE: { value: 1, label: '세금계산서' },
  NONE: { value: 2, label: '발행 안 함' },
});

/** Spec §3 receipt type chosen on the top-up form (`feeType`). */
export const receiptTypes = ['none', 'fee', 'cash'] as const;
export type ReceiptType = (typeof receiptTypes)[number];
export const receiptTypeSchema = z.enum(receiptTypes);
export const receiptTypeLabels: Readonly<Record<ReceiptType, string>> = {
  none: '발행 안 함',
  fee: '세금계산서',
  cash: '현금영수증',
};

/** The payment type recorded for a top-up follows from the receipt the member asked for. */
export function paymentTypeOf(receipt: ReceiptType): number {
  if (receipt === 'fee') return PaymentType.values.FEE;
  if (receipt === 'cash') return PaymentType.values.CASH;
  return PaymentType.values.NONE;
}

/** Spec §9 payment-type filters of the operators' top-up list, with the payment types each admits. */
export const paymentTypeFilters = {
  ALL: [PaymentType.values.CASH, PaymentType.values.FEE, PaymentType.values.NONE],
  CASH_AND_FEE: [PaymentType.values.CASH, PaymentType.values.FEE],
  FEE: [PaymentType.values.FEE],
  CASH: [PaymentType.values.CASH],
  NO_FEE: [PaymentType.values.NONE],
} as const satisfies Record<string, readonly number[]>;
export type PaymentTypeFilter = keyof typeof paymentTypeFilters;

/** Spec §4 client auth state, in the spec's order; the app starts in `loading`. */
export const authStates = ['unAuthorization', 'guest', 'authorization', 'loading'] as const;
export type AuthState = (typeof authStates)[number];
export const authStateLabels: Readonly<Record<AuthState, string>> = {
  unAuthorization: '로그인 필요',
  guest: '둘러보기',
  authorization: '로그인됨',
  loading: '확인 중',
};
