import type {
  AutoOrderViewBody,
  CategoryViewBody,
  FaqViewBody,
  NoticeViewBody,
  OrderViewBody,
  Page,
  PlatformViewBody,
  RegisterWhereViewBody,
  ServiceViewBody,
  TopUpViewBody,
} from '@smm/contracts/http';
import type { Restriction } from './contracts.ts';

/** Answers of the BFF (bff/API.md, /tmp/plan/bff-money-api.md) as the web app reads them. */
export type Setting = { key: string; value: string };
export type Profile = {
  id: string;
  point: number;
  pointDeci: number;
  apiKey: string | null;
  referralCode: string | null;
  userId?: string;
  role?: string;
  email?: string;
  /** A warning from the operators (issue 12); a suspended or banned member gets no profile. */
  restriction?: Restriction | null;
};
/**
 * What the BFF relays as the services send it: the services' answer contracts (@smm/contracts/http,
 * type-only, so nothing of zod reaches the bundle).
 */
export type Notice = NoticeViewBody;
export type Qna = FaqViewBody;
export type RegisterWhere = RegisterWhereViewBody;
export type { Page };
export type TopUp = TopUpViewBody;
/** The public catalogue (catalog's `/platforms`, `/categories`, `/services`), relayed unchanged. */
export type Platform = PlatformViewBody;
export type Category = CategoryViewBody;
export type Service = ServiceViewBody;
/**
 * The member's histories (order's `/orders` and `/auto-orders`), relayed unchanged. `status` is null
 * until an order is paid and `linkUrl` null for a link with no public address (the screens show
 * both); the member's lists hold paid orders only, the operators' may hold unpaid ones.
 */
export type OrderItem = OrderViewBody;
export type AutoOrderItem = AutoOrderViewBody;
