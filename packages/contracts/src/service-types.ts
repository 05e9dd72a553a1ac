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
 *
 * Only `default` products may take auto orders: a run repeats the same order, and the panel standard
 * offers drip-feed (runs, interval) for Default services only.
 */
export const serviceTypes = ['default', 'custom-comments', 'package', 'mentions-custom-list', 'comment-likes'] as const;
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
};

/** Korean names for members and operators. */
export const serviceTypeLabels: Readonly<Record<ServiceType, string>> = {
  default: '기본 (링크 + 수량)',
  'custom-comments': '댓글 직접 입력',
  package: '패키지',
  'mentions-custom-list': '멘션 (아이디 목록)',
  'comment-likes': '댓글 좋아요',
};

/**
 * A provider's `type` text → ours; null for a type this product cannot sell (Subscriptions, Poll,
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
