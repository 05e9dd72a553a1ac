import type { AdminTopUpRowBody } from '@smm/contracts/http';

/** One row of GET /api/admin/top-ups: wallet's operator view with the login id (@smm/contracts/http). */
export type AdminTopUp = AdminTopUpRowBody;

export const paymentFilters = ['ALL', 'CASH_AND_FEE', 'FEE', 'CASH', 'NO_FEE'] as const;
export type PaymentFilter = (typeof paymentFilters)[number];
