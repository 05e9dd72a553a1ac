import type { ReceiptType } from '../../../lib/statuses.ts';

/** One row of GET /api/admin/top-ups (bff/API.md). */
export type AdminTopUp = {
  id: number;
  createdAt: string;
  userId: string;
  loginId: string | null;
  name: string;
  point: number;
  pointDeci: number;
  transferAmount: number;
  transferDeci: number;
  receiptType: ReceiptType;
  feeValue: Partial<Record<'company' | 'businessNumber' | 'leader' | 'phone' | 'email', string>>;
  status: number;
  responseAt: string | null;
  expiresAt: string;
  rejectReason: string | null;
  receiptIssuedAt: string | null;
};

export const paymentFilters = ['ALL', 'CASH_AND_FEE', 'FEE', 'CASH', 'NO_FEE'] as const;
export type PaymentFilter = (typeof paymentFilters)[number];
