/** GET /api/admin/dashboard (bff/API.md "Admin: dashboard"); money in deci-won. */
export type MoneyDay = { date: string; salesDeci: number; refundsDeci: number; topUpsDeci: number; topUpCount: number };
export type Dashboard = {
  days: MoneyDay[];
  pendingTopUps: number;
  ordersByStatus: Record<string, number>;
  fulfillment: {
    review: number;
    failed: number;
    /** Unread notices of the price and balance syncs (providers screen); null for staff. */
    notices?: number | null;
    /** Provider balances; null for staff (providers are the admin's). */
    providers: Array<{ id: number; name: string; currency: string; balance: string | null; balanceLow: boolean; lastError: string | null }> | null;
  } | null;
  /** Events the services' consumers dead-lettered, per consumer group (null: Kafka not readable, or staff). */
  deadLetters?: { total: number; topics: Array<{ consumer: string; topic: string; count: number }> } | null;
};
