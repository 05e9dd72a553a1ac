/** Rows of the fulfillment admin API the console reads (bff/API.md "Admin: fulfillment"). */
export type Provider = {
  id: number;
  name: string;
  url: string;
  /** Masked by the service ("****abcd"); the full key never leaves it. */
  key: string;
  currency: string;
  wonDeciPerUnit: number;
  lowBalanceThreshold: string;
  /** The provider replays `add` for a repeated Idempotency-Key (a copy of this product does). */
  idempotentAdd: boolean;
  balance: string | null;
  balanceCheckedAt: string | null;
  balanceLow: boolean;
  lastError: string | null;
  createdAt: string;
};

export type ProviderInput = { name: string; url: string; key?: string; currency: string; wonDeciPerUnit: number; lowBalanceThreshold: string; idempotentAdd: boolean };

export type CheckResult = { ok: boolean; balance: string | null; currency: string | null; error: string | null };

export type ProviderService = { service: string | number; name: string; type?: string; category?: string; rate: string; min: number; max: number; listed: boolean };

export type PriceRule = { kind: 'markup'; percent: number } | { kind: 'fixed'; unitPriceDeci: number };

export type Mapping = {
  productId: number;
  mode: 'manual' | 'provider';
  providerId: number | null;
  providerServiceId: string | null;
  rule: PriceRule | null;
  costDeci: number | null;
  unitPriceDeci: number | null;
  min: number | null;
  max: number | null;
  suspendedReason: string | null;
};

export type Forward = {
  orderId: number;
  userId: string;
  productId: number;
  link: string;
  amount: number;
  state: string;
  providerId: number | null;
  providerOrderId: string | null;
  attempts: number;
  note: string | null;
  updatedAt?: string;
  createdAt?: string;
};

/** GET /api/admin/fulfillment/notices: what the price and balance syncs told operators. */
export type NoticeList = {
  unread: number;
  items: Array<{ id: string; kind: 'repriced' | 'suspended' | 'resumed' | 'balance-low'; providerId: number; productId: number | null; text: string; createdAt: string; read: boolean }>;
};
