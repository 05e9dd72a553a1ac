import type { AdminDashboardBody } from '@smm/contracts/http';

/**
 * GET /api/admin/dashboard as the BFF composes it (@smm/contracts/http admin-console); money in
 * deci-won. `fulfillment` is null when it cannot answer; its `providers` and `notices`, and
 * `deadLetters`, are null for staff.
 */
export type Dashboard = AdminDashboardBody;
export type MoneyDay = Dashboard['days'][number];
