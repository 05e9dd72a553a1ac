import { type ServiceType, autoOrderLimits, chargedUnits, linesOf, normalizeUsername, orderDetailLimits, priceDeci, subscriptionLimits, usernameItems } from '../../lib/contracts.ts';
import { orderText as t } from './messages.ts';

/**
 * The order form's rules (spec §4 resets, §5 validation order, price), free of React so they are
 * unit-tested directly. Inputs stay strings as typed; they are parsed when checked.
 */
export type CatalogService = {
  id: string | number;
  categoryId: string | number;
  min: number;
  max: number;
  unitPriceDeci: number;
  enableAuto: boolean;
  isReadOnly: boolean;
  /** What the member gives besides the link (absent: default). */
  type?: ServiceType | undefined;
};
export type CatalogCategory = { id: string | number; platformId: number };
export type Catalog = { categories: CatalogCategory[]; services: CatalogService[] };

export type OrderForm = {
  platformId: number | null;
  categoryId: string | number | null;
  serviceId: string | number | null;
  link: string;
  amount: string;
  auto: boolean;
  runs: string;
  interval: string;
  /** Custom comments, one per line. */
  comments: string;
  /** Mentions: usernames, one per line. */
  usernames: string;
  /** Comment likes: the comment author's username; a subscription: the profile's. */
  username: string;
  /** A subscription (issue 40): min and max per post, posts, delay (minutes), expiry (yyyy-mm-dd or ''). */
  subMin?: string;
  subMax?: string;
  posts?: string;
  delay?: string;
  expiry?: string;
};

export const emptyForm: OrderForm = { platformId: null, categoryId: null, serviceId: null, link: '', amount: '', auto: false, runs: '0', interval: '0', comments: '', usernames: '', username: '', subMin: '', subMax: '', posts: '', delay: '0', expiry: '' };

export const typeOf = (service: Pick<CatalogService, 'type'> | undefined): ServiceType => service?.type ?? 'default';

export const { minRuns, maxRuns, minIntervalMinutes, maxIntervalMinutes } = autoOrderLimits;

export function categoriesOf<C extends CatalogCategory>(catalog: { categories: C[] }, platformId: number | null): C[] {
  return catalog.categories.filter((c) => c.platformId === platformId);
}

export function servicesOf<S extends CatalogService>(catalog: { services: S[] }, categoryId: string | number | null): S[] {
  return catalog.services.filter((s) => String(s.categoryId) === String(categoryId));
}

export function findService<S extends CatalogService>(catalog: { services: S[] }, serviceId: string | number | null): S | undefined {
  return serviceId === null ? undefined : catalog.services.find((s) => String(s.id) === String(serviceId));
}

/** A new product switches auto-order off and sets the amount to the product's minimum. */
export function selectService(form: OrderForm, catalog: Catalog, serviceId: string | number | null): OrderForm {
  const service = findService(catalog, serviceId);
  return { ...form, serviceId: service?.id ?? null, amount: service ? String(service.min) : '', auto: false, runs: '0', interval: '0', comments: '', usernames: '', username: '' };
}

/** A new category resets the product to its first one. */
export function selectCategory(form: OrderForm, catalog: Catalog, categoryId: string | number | null): OrderForm {
  const first = servicesOf(catalog, categoryId)[0];
  return selectService({ ...form, categoryId }, catalog, first?.id ?? null);
}

/** Selecting a platform resets the category to its first one (and so the product). */
export function selectPlatform(form: OrderForm, catalog: Catalog, platformId: number): OrderForm {
  const first = categoriesOf(catalog, platformId)[0];
  return selectCategory({ ...form, platformId }, catalog, first?.id ?? null);
}

/**
 * Fills in what the lists now offer and the form still lacks — the first platform, then its first
 * category, then that category's first product — so a list that arrives after the others (a read
 * that failed and was retried) leaves the form as if it had come with them, never showing a
 * product in the list that the order would not use. The same form when nothing is missing.
 */
export function fillChoice(form: OrderForm, catalog: Catalog, firstPlatformId: number | undefined): OrderForm {
  if (form.platformId === null) return firstPlatformId === undefined ? form : selectPlatform(form, catalog, firstPlatformId);
  if (form.categoryId === null) {
    const first = categoriesOf(catalog, form.platformId)[0];
    return first ? selectCategory(form, catalog, first.id) : form;
  }
  if (form.serviceId === null) {
    const first = servicesOf(catalog, form.categoryId)[0];
    return first ? selectService(form, catalog, first.id) : form;
  }
  return form;
}

/** Toggling auto-order resets runs and interval to 0. */
export function toggleAuto(form: OrderForm, auto: boolean): OrderForm {
  return { ...form, auto, runs: '0', interval: '0' };
}

const toNumber = (value: string): number => (value.trim() === '' ? Number.NaN : Number(value));

type QuantityFields = Pick<OrderForm, 'amount' | 'auto' | 'runs'> & Partial<Pick<OrderForm, 'comments' | 'usernames' | 'subMax' | 'posts'>>;

/**
 * The quantity one order delivers: typed as the amount; for custom comments and mentions the
 * number of lines (usernames) written; a package's fixed quantity.
 */
export function orderQuantity(form: QuantityFields, service?: Pick<CatalogService, 'type' | 'min'>): number {
  switch (typeOf(service)) {
    case 'custom-comments':
      return linesOf(form.comments ?? '').length;
    case 'mentions-custom-list':
      return usernameItems(form.usernames ?? '').length;
    case 'package':
      return service!.min;
    case 'subscriptions':
      // Charged for the max per post.
      return toNumber(form.subMax ?? '');
    default:
      return toNumber(form.amount);
  }
}

/** Total quantity = amount × max(runs, 1); a one-off order counts one run. */
export function totalQuantity(form: QuantityFields, service?: Pick<CatalogService, 'type' | 'min'>): number {
  const amount = orderQuantity(form, service);
  if (!Number.isFinite(amount) || amount < 0) return 0;
  // A subscription's posts are its runs: max per post × posts.
  const runs = typeOf(service) === 'subscriptions' ? toNumber(form.posts ?? '') : form.auto ? toNumber(form.runs) : 1;
  return amount * Math.max(Number.isFinite(runs) ? runs : 1, 1);
}

/** Total price in deci-won = unit price × total quantity (0 while the quantity is not a whole number). */
export function totalPriceDeci(service: (Pick<CatalogService, 'unitPriceDeci'> & Partial<Pick<CatalogService, 'type' | 'min'>>) | undefined, form: QuantityFields): number {
  const typed = service && service.min !== undefined ? { type: service.type, min: service.min } : undefined;
  const quantity = totalQuantity(form, typed);
  if (!service || !Number.isInteger(quantity)) return 0;
  // A package is charged once, whatever it delivers (the order service's rule, contracts' chargedUnits).
  return priceDeci(service.unitPriceDeci, chargedUnits(typeOf(service), quantity));
}

export type OrderField = 'service' | 'link' | 'comments' | 'usernames' | 'username' | 'subMin' | 'subMax' | 'posts' | 'delay' | 'expiry' | 'amount' | 'runs' | 'interval' | 'balance';
export type OrderProblem = { field: OrderField; message: string };

/**
 * Spec §5 order checks, in this order; the first broken rule is reported. The balance must cover
 * the total price (unit price × amount × max(runs, 1)), as the server checks it when the order is
 * placed, so an automatic order is refused here rather than by the server.
 */
export function validateOrder(
  form: OrderForm,
  service: CatalogService | undefined,
  balanceDeci: number,
  options: { guest?: boolean } = {},
): OrderProblem | null {
  if (!service) return { field: 'service', message: t.chooseService };
  if (typeOf(service) === 'subscriptions') return subscriptionProblem(form, service, balanceDeci, options);
  if (form.link.trim() === '') return { field: 'link', message: t.linkRequired };
  const typed = typedProblem(form, service);
  if (typed) return typed;
  const amount = orderQuantity(form, service);
  // 10.5 is a number but not a quantity: say so here rather than send it and get a format error.
  if (Number.isFinite(amount) && !Number.isInteger(amount)) return { field: 'amount', message: t.amountNotInteger };
  const counted = countedField(service);
  if (!(amount >= service.min)) return { field: counted ?? 'amount', message: counted ? t.countBelowMin(service.min) : t.belowMin };
  if (amount > service.max) return { field: counted ?? 'amount', message: counted ? t.countAboveMax(service.max) : t.aboveMax };
  if (form.auto) {
    const runs = toNumber(form.runs);
    if (!(runs >= minRuns)) return { field: 'runs', message: t.runsTooFew };
    if (!Number.isInteger(runs)) return { field: 'runs', message: t.runsNotInteger };
    if (runs > maxRuns) return { field: 'runs', message: t.runsTooMany };
    const interval = toNumber(form.interval);
    if (!(interval >= minIntervalMinutes)) return { field: 'interval', message: t.intervalTooShort };
    if (!Number.isInteger(interval)) return { field: 'interval', message: t.intervalNotInteger };
    if (interval > maxIntervalMinutes) return { field: 'interval', message: t.intervalTooLong };
  }
  if (options.guest) return { field: 'balance', message: t.guest };
  const runs = form.auto ? toNumber(form.runs) : 1;
  const total = service.unitPriceDeci * chargedUnits(typeOf(service), Math.ceil(amount)) * Math.max(runs, 1);
  // Compared as a plain product: an absurd run count must read as "insufficient", not throw.
  if (total > balanceDeci) return { field: 'balance', message: t.insufficient };
  return null;
}

/** Today in Korea (yyyy-mm-dd): an expiry before it is refused. */
const kstToday = (now = new Date()) => new Date(now.getTime() + 9 * 3600_000).toISOString().slice(0, 10);

/**
 * A subscription's fields in the order service's order (issue 40): the profile username, min and
 * max per post within the product's range (min ≤ max), whole posts 1–1,000, a delay the standard
 * offers, an expiry not before today; then the balance against unit price × max × posts.
 */
function subscriptionProblem(form: OrderForm, service: CatalogService, balanceDeci: number, options: { guest?: boolean }): OrderProblem | null {
  if (form.username.trim() === '') return { field: 'username', message: t.subUsernameRequired };
  if (normalizeUsername(form.username) === null) return { field: 'username', message: t.usernameInvalid(form.username.trim()) };
  const min = toNumber(form.subMin ?? '');
  if (!Number.isInteger(min)) return { field: 'subMin', message: t.subMinInvalid };
  const max = toNumber(form.subMax ?? '');
  if (!Number.isInteger(max)) return { field: 'subMax', message: t.subMaxInvalid };
  if (min < service.min) return { field: 'subMin', message: t.belowMin };
  if (max > service.max) return { field: 'subMax', message: t.aboveMax };
  if (min > max) return { field: 'subMin', message: t.subMinAboveMax };
  const posts = toNumber(form.posts ?? '');
  if (!Number.isInteger(posts) || posts < 1 || posts > subscriptionLimits.maxPosts) return { field: 'posts', message: t.subPostsInvalid(subscriptionLimits.maxPosts) };
  const expiry = (form.expiry ?? '').trim();
  if (expiry !== '' && (!/^\d{4}-\d{2}-\d{2}$/.test(expiry) || expiry < kstToday())) return { field: 'expiry', message: t.subExpiryInvalid };
  if (options.guest) return { field: 'balance', message: t.guest };
  if (service.unitPriceDeci * max * posts > balanceDeci) return { field: 'balance', message: t.insufficient };
  return null;
}

/** The field whose lines are counted as the quantity (custom comments, mentions), if any. */
function countedField(service: CatalogService): 'comments' | 'usernames' | null {
  const type = typeOf(service);
  return type === 'custom-comments' ? 'comments' : type === 'mentions-custom-list' ? 'usernames' : null;
}

/** A typed product's own fields, checked after the link (the order service's order). */
function typedProblem(form: OrderForm, service: CatalogService): OrderProblem | null {
  switch (typeOf(service)) {
    case 'custom-comments': {
      const lines = linesOf(form.comments);
      if (lines.length === 0) return { field: 'comments', message: t.commentsRequired };
      const long = lines.findIndex((c) => c.length > orderDetailLimits.commentMaxLength);
      return long >= 0 ? { field: 'comments', message: t.commentTooLong(long + 1) } : null;
    }
    case 'mentions-custom-list': {
      const items = usernameItems(form.usernames);
      if (items.length === 0) return { field: 'usernames', message: t.usernamesRequired };
      const seen = new Set<string>();
      for (const item of items) {
        const name = normalizeUsername(item);
        if (name === null) return { field: 'usernames', message: t.usernameInvalid(item) };
        if (seen.has(name)) return { field: 'usernames', message: t.usernamesDuplicate(name) };
        seen.add(name);
      }
      return null;
    }
    case 'comment-likes': {
      if (form.username.trim() === '') return { field: 'username', message: t.usernameRequired };
      return normalizeUsername(form.username) === null ? { field: 'username', message: t.usernameInvalid(form.username.trim()) } : null;
    }
    default:
      return null;
  }
}

/** The typed fields to send for a product (only its type's own). */
function typedPayload(form: OrderForm, service: CatalogService) {
  switch (typeOf(service)) {
    case 'custom-comments':
      return { comments: form.comments };
    case 'mentions-custom-list':
      return { usernames: form.usernames };
    case 'comment-likes':
      return { username: form.username.trim() };
    default:
      return {};
  }
}

/** The body of POST /service/order (spec §3 order-creation payload, and a typed product's fields). */
export function orderPayload(form: OrderForm, service: CatalogService) {
  if (typeOf(service) === 'subscriptions') {
    return {
      serviceId: service.id,
      username: form.username.trim(),
      min: toNumber(form.subMin ?? ''),
      max: toNumber(form.subMax ?? ''),
      posts: toNumber(form.posts ?? ''),
      delay: toNumber(form.delay ?? '0'),
      ...((form.expiry ?? '').trim() === '' ? {} : { expiry: (form.expiry ?? '').trim() }),
      unitPriceDeci: service.unitPriceDeci,
    };
  }
  return {
    serviceId: service.id,
    link: form.link.trim(),
    amount: orderQuantity(form, service),
    ...typedPayload(form, service),
    runs: form.auto ? Number(form.runs) : 0,
    interval: form.auto ? Number(form.interval) : 0,
    // The price the member is shown: the order is charged at it, or refused if it changed meanwhile.
    unitPriceDeci: service.unitPriceDeci,
  };
}

/** The Idempotency-Key of an order the member means to place, with the payload it was made for. */
export type OrderAttempt = { payload: string; key: string };

/** 128 random bits as hex: `crypto.getRandomValues` works on plain-http pages too (randomUUID does not). */
function randomKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The attempt to send this payload under: the pending one when the member sends the same order
 * again after an answer that never came (a network failure, a server error) — the BFF and the order
 * service then answer with the order already placed instead of charging twice — a new key otherwise.
 */
export function attemptFor(pending: OrderAttempt | null, payload: unknown, newKey: () => string = randomKey): OrderAttempt {
  const body = JSON.stringify(payload);
  return pending?.payload === body ? pending : { payload: body, key: newKey() };
}

/**
 * Whether a failed submit ended its attempt: a definite refusal (4xx: too few points, a changed
 * price, a rule) is the answer to that order, so sending it again — after a top-up, say — is a new
 * order with a new key. A network failure or a server error leaves the outcome unknown: the key stays.
 */
export function attemptEnded(status: number): boolean {
  return status >= 400 && status < 500;
}
