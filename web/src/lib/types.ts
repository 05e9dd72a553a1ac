import type {
  AutoOrderViewBody,
  CategoryViewBody,
  FaqViewBody,
  MemberProfileBody,
  NoticeViewBody,
  OrderViewBody,
  Page,
  PlatformViewBody,
  RegisterWhereViewBody,
  MemberServiceViewBody,
  TopUpViewBody,
} from '@smm/contracts/http';

/** Answers of the BFF (bff/API.md, /tmp/plan/bff-money-api.md) as the web app reads them. */
export type Setting = { key: string; value: string };
/** GET /api/auth/profile: auth's profile with wallet's balance, as the BFF composes it. */
export type MemberProfile = MemberProfileBody;
/** The guest's profile is the web app's own (spec §3): browse mode, no member behind it. */
export type GuestProfile = Pick<MemberProfileBody, 'id' | 'point' | 'pointDeci' | 'apiKey' | 'referralCode'> & { userId?: never; role?: never; email?: never; restriction?: never };
export type Profile = MemberProfile | GuestProfile;
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
/** Priced for a signed-in member (issue 40): `listUnitPriceDeci` is the catalogue's price where their rate changed it. */
export type Service = MemberServiceViewBody;
/**
 * The member's histories (order's `/orders` and `/auto-orders`), relayed unchanged. `status` is null
 * until an order is paid and `linkUrl` null for a link with no public address (the screens show
 * both); the member's lists hold paid orders only, the operators' may hold unpaid ones.
 */
export type OrderItem = OrderViewBody;
export type AutoOrderItem = AutoOrderViewBody;
