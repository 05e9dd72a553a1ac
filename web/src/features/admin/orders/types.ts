/** One row of GET /api/admin/orders/search. */
export type AdminOrder = {
  id: number;
  createdAt: string;
  userId: string;
  loginId: string | null;
  serviceId: number;
  serviceText: string;
  link: string;
  amount: number;
  pointDeci: number;
  status: number;
  startCount: number | null;
  remains: number;
  /** Fulfillment's record of this order (null: none, e.g. not forwarded yet). */
  forwarding: Forwarding | null;
};
/** GET /api/admin/orders/search: a page, and whether fulfillment answered (forwarding) / the provider filter stopped early. */
export type OrdersPage = { items: AdminOrder[]; page: number; pageSize: number; hasNext: boolean; forwardingUnavailable?: true; scanLimited?: true };
export type Forwarding = { state: string; providerId: number | null; providerName: string | null; providerOrderId: string | null; providerStatus: string | null };
export type ProviderName = { id: number; name: string };
export type BulkResult = { results: Array<{ id: number; ok: boolean; message?: string }> };
