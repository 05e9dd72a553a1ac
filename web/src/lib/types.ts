import type {
  FaqViewBody,
  NoticeViewBody,
  Page,
  RegisterWhereViewBody,
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
export type Platform = { id: number; text: string; icon?: string; visible: boolean; background: string };
export type Category = { id: string | number; text: string; platform?: unknown; platformId: number };
export type Service = {
  id: string | number;
  text: string;
  categoryId: string | number;
  platformId?: number;
  min: number;
  max: number;
  point: number;
  unitPriceDeci: number;
  notice: string;
  enableAuto: boolean;
  isReadOnly: boolean;
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
/*
 * Still restated here, looser than the contracts (issue 15, left for a follow-up): the order views
 * say `status` and `linkUrl` may be null and ids are numbers, which the history screens and their
 * tests do not handle yet; the catalogue's platform carries `icon` always.
 */
/** What both history rows carry: the product, the link, the money used and the quantity. */
type HistoryItemBase = {
  id: string | number;
  createdAt: string;
  serviceId: string | number;
  serviceText?: string;
  link: string;
  linkUrl?: string;
  point: number;
  pointDeci: number;
  amount: number;
  status: number;
};
export type OrderItem = HistoryItemBase & {
  startCount: number | null;
  remains: number | null;
  autoOrderId?: string | null;
  /** Why the order last changed status (e.g. the provider refused the link), in Korean. */
  reason?: string | null;
};
export type AutoOrderItem = HistoryItemBase & {
  completed: number;
  runs: number;
  interval: number;
  totalQuantity?: number;
  /** What was charged up front (unit price × amount × runs). */
  chargeDeci?: number;
};
