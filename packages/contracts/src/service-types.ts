/**
 * Product types beyond "a link and a quantity" (issue 40), named after the panel standard (Perfect
 * Panel's API v2 `type` of `services`). Browser-safe: no node, no zod.
 *
 * | type | the member gives | quantity | price |
 * |---|---|---|---|
 * | default | link, quantity | as typed | unit price × quantity |
 * | custom-comments | link, comments one per line | the number of comments | unit price × quantity |
 * | package | link | fixed: the product's min (= max) | the unit price is the price of one package |
 * | mentions-custom-list | link, usernames one per line | the number of usernames | unit price × quantity |
 * | comment-likes | link (of the post), the comment author's username, quantity | as typed | unit price × quantity |
 * | subscriptions | profile username, min/max per post, posts, delay, expiry | max per post | unit price × max × posts, up front |
 *
 * Only `default` products may take auto orders: a run repeats the same order, and the panel standard
 * offers drip-feed (runs, interval) for Default services only.
 */
export const serviceTypes = ['default', 'custom-comments', 'package', 'mentions-custom-list', 'comment-likes', 'subscriptions'] as const;
export type ServiceType = (typeof serviceTypes)[number];

export function isServiceType(value: unknown): value is ServiceType {
  return typeof value === 'string' && (serviceTypes as readonly string[]).includes(value);
}

/** The panel standard's names (`services` → `type`), as resellers' tools and upstream panels read them. */
export const serviceTypeApiNames: Readonly<Record<ServiceType, string>> = {
  default: 'Default',
  'custom-comments': 'Custom Comments',
  package: 'Package',
  'mentions-custom-list': 'Mentions Custom List',
  'comment-likes': 'Comment Likes',
  subscriptions: 'Subscriptions',
};

/** Korean names for members and operators. */
export const serviceTypeLabels: Readonly<Record<ServiceType, string>> = {
  default: '기본 (링크 + 수량)',
  'custom-comments': '댓글 직접 입력',
  package: '패키지',
  'mentions-custom-list': '멘션 (아이디 목록)',
  'comment-likes': '댓글 좋아요',
  subscriptions: '구독 (신규 게시물 자동)',
};

/**
 * A provider's `type` text → ours; null for a type this product cannot sell (Poll,
 * SEO, Mentions with Hashtags …). Case and spacing do not matter; a missing type is Default.
 */
export function serviceTypeFromApiName(name: string | undefined | null): ServiceType | null {
  const key = (name ?? '').trim().toLowerCase().replace(/[\s_-]+/g, ' ');
  if (key === '' || key === 'default') return 'default';
  for (const type of serviceTypes) if (serviceTypeApiNames[type].toLowerCase() === key) return type;
  return null;
}

/** Auto orders (runs × interval) are for default products only. */
export function serviceTypeAllowsAuto(type: ServiceType): boolean {
  return type === 'default';
}

/** How many units of the unit price one order is charged: a package is one package, whatever it delivers. */
export function chargedUnits(type: ServiceType, quantity: number): number {
  return type === 'package' ? 1 : quantity;
}

/** Limits of the typed details. */
export const orderDetailLimits = {
  /** One comment's length. */
  commentMaxLength: 300,
  /** A username: letters, digits, `.` and `_` (Instagram, TikTok, X rules), 1–30, an optional leading `@`. */
  usernameMaxLength: 30,
} as const;

/** What an order of a typed product carries besides link and quantity (absent for default products). */
export type OrderDetails = { comments?: string[]; usernames?: string[]; username?: string };

/** Non-empty lines, trimmed (CRLF or LF). */
export function linesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

const usernamePattern = /^[\p{L}\p{N}._]{1,30}$/u;

/** A username as stored: without its leading `@`; null when it is not one. */
export function normalizeUsername(text: string): string | null {
  const name = text.trim().replace(/^@/, '');
  return usernamePattern.test(name) ? name : null;
}

/** Usernames separated by lines or commas (the standard's clients send either). */
export function usernameItems(text: string): string[] {
  return text
    .split(/[\r\n,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * Subscriptions (Perfect Panel's "Subscriptions" type): every new post of the profile `username`
 * gets an order of `min`–`max` units, `delay` minutes after it is posted, for the next `posts` posts,
 * until `expiry` (a date, optional). The member is charged up front for the maximum
 * (unit price × max × posts); each post done uses unit price × max (the post's order is for `max`);
 * what was not used goes back once, when the subscription ends (expired, canceled).
 */
export const subscriptionLimits = {
  /** Posts one subscription may cover. */
  maxPosts: 1000,
  /** Delays the panel standard offers (minutes after the post). */
  delays: [0, 5, 10, 15, 30, 60, 90] as readonly number[],
  /** The latest expiry: a year from placing. */
  maxExpiryDays: 366,
} as const;

/** A subscription's state, with the panel standard's names (API v2 `status`). */
export const subscriptionStates = ['active', 'paused', 'completed', 'expired', 'canceled'] as const;
export type SubscriptionState = (typeof subscriptionStates)[number];
export const subscriptionStateApiNames: Readonly<Record<SubscriptionState, string>> = {
  active: 'Active',
  paused: 'Paused',
  completed: 'Completed',
  expired: 'Expired',
  canceled: 'Canceled',
};
export const subscriptionStateLabels: Readonly<Record<SubscriptionState, string>> = {
  active: '진행중',
  paused: '일시 정지',
  completed: '완료',
  expired: '기간 만료',
  canceled: '취소',
};

/** What a subscription carries: the member's fields as checked. `expiry` is `yyyy-mm-dd` (the last day, KST) or null. */
export type SubscriptionTerms = { username: string; min: number; max: number; posts: number; delay: number; expiry: string | null };

/** The standard's state name (any case) → ours; null for anything else. */
export function subscriptionStateFromApiName(name: unknown): SubscriptionState | null {
  if (typeof name !== 'string') return null;
  const key = name.trim().toLowerCase();
  if (key === 'in progress') return 'active';
  if (key === 'cancelled') return 'canceled';
  return (subscriptionStates as readonly string[]).includes(key) ? (key as SubscriptionState) : null;
}

/** The moment a `yyyy-mm-dd` expiry ends: the next day's 00:00 KST (UTC+9, no daylight saving). */
export function expiryEnd(expiry: string): Date {
  const [y, m, d] = expiry.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1) - 9 * 3600_000);
}
