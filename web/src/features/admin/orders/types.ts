import type { AdminOrderRowBody, AdminOrderSearchBody, BulkOrderResultBody, ForwardingViewBody, ProviderNamesBody } from '@smm/contracts/http';

/**
 * GET /api/admin/orders/search as the BFF composes it (@smm/contracts/http admin-console): order's
 * view with the login id and fulfillment's forwarding (null: none, e.g. not forwarded yet); the page
 * says whether fulfillment answered (forwardingUnavailable) and whether the provider filter stopped
 * early (scanLimited).
 */
export type AdminOrder = AdminOrderRowBody;
export type OrdersPage = AdminOrderSearchBody;
export type Forwarding = ForwardingViewBody;
/** A paid order has a status; only those can be changed (order refuses the rest: ORDER_NOT_PAID). */
export type PaidOrder = AdminOrder & { status: number };
export const isPaid = (order: AdminOrder): order is PaidOrder => order.status !== null;
/** GET /api/admin/orders/providers: the provider filter's choices (fulfillment's, relayed). */
export type ProviderName = ProviderNamesBody[number];
/** POST /api/admin/orders/bulk: per order, done or order's refusal (code and Korean message). */
export type BulkResult = BulkOrderResultBody;
