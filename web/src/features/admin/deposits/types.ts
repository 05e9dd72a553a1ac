import type { AdminDepositRowBody } from '@smm/contracts/http';

/** One row of GET /api/admin/deposits: wallet's deposit with the member's login id (@smm/contracts/http). */
export type AdminDeposit = AdminDepositRowBody;
