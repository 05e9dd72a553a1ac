import { v2OrderNotReady } from '@smm/contracts/http';
import type { OrderDetails, ServiceType, SubscriptionTerms } from '@smm/contracts';
import type { AddAnswer } from '../domain/add-outcome.ts';
import { privateTarget } from './address-guard.ts';

/**
 * The panel-standard API v2 of an upstream provider: POST form fields `key`, `action`, … to one
 * URL, JSON back, `{ "error": "…" }` on failure. One instance per provider; the key is given
 * opened, only for the call.
 */
export type ProviderEndpoint = { url: string; key: string; allowPrivate: boolean };

/** The call's outcome at the transport level; `reached` false only when the request provably never arrived. */
export type RawAnswer = { kind: 'json'; body: unknown; text: string } | { kind: 'fault'; reached: boolean; detail: string; text?: string };

/** What is kept of a provider's answer for operators: its text, cut to a length a screen can show. */
export const answerText = (text: string) => (text.length > maxAnswerChars ? `${text.slice(0, maxAnswerChars)}…` : text);
const maxAnswerChars = 500;

/** Connection-level failures that happen before a request byte is sent. */
const unreachedCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function faultOf(error: unknown): RawAnswer {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return { kind: 'fault', reached: true, detail: 'timeout' };
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : 'network error';
  return { kind: 'fault', reached: !unreachedCodes.has(code), detail: code };
}

export async function callProvider(endpoint: ProviderEndpoint, fields: Record<string, string>, timeoutMs: number, headers: Record<string, string> = {}): Promise<RawAnswer> {
  // Checked at every call, not only when the URL was saved: a name may resolve elsewhere later.
  const refused = endpoint.allowPrivate ? null : await privateTarget(endpoint.url);
  if (refused !== null) return { kind: 'fault', reached: false, detail: `not called: ${refused}` };
  let res: Response;
  let text: string;
  try {
    res = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers },
      body: new URLSearchParams({ key: endpoint.key, ...fields }).toString(),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    text = await res.text();
  } catch (error) {
    return faultOf(error);
  }
  if (res.status >= 500) return { kind: 'fault', reached: true, detail: `HTTP ${res.status}`, text: answerText(text) };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { kind: 'fault', reached: true, detail: `HTTP ${res.status}: not JSON`, text: answerText(text) };
  }
  return { kind: 'json', body, text: answerText(text) };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const errorOf = (body: unknown): string | undefined => (isRecord(body) && typeof body.error === 'string' ? body.error : undefined);
const idText = (v: unknown): string | undefined => (typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : typeof v === 'string' && /^[\w-]{1,64}$/.test(v) ? v : undefined);
/** An API v2 order or refill id: a positive integer (a number, or its digits as text). -5, 0, 1.5 or "abc" are not ids. */
export const positiveIdText = (v: unknown): string | undefined =>
  typeof v === 'number' ? (Number.isSafeInteger(v) && v > 0 ? String(v) : undefined) : typeof v === 'string' && /^[1-9]\d{0,17}$/.test(v.trim()) ? v.trim() : undefined;

/** One order as `add` sends it: the product's type decides the fields (the panel standard's per type). */
export type AddRequest = { service: string; link: string; quantity: number; reference: string; serviceType?: ServiceType; details?: OrderDetails | undefined; subscription?: SubscriptionTerms | undefined };

/** `yyyy-mm-dd` → the standard's `dd/mm/yyyy`. */
const standardDate = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/**
 * The standard's `add` fields for a type: Default `quantity`; Custom Comments `comments` one per line
 * (the provider counts them); Package nothing more; Mentions Custom List `usernames` one per line;
 * Comment Likes `quantity` and `username`; Subscriptions `username`, `min`, `max`, `posts`, `delay`
 * and `expiry` (`dd/mm/yyyy`, only when there is one) — no link, no quantity.
 */
export function addFields(order: AddRequest): Record<string, string> {
  const base = { service: order.service, link: order.link };
  const quantity = String(order.quantity);
  switch (order.serviceType ?? 'default') {
    case 'custom-comments':
      return { ...base, comments: (order.details?.comments ?? []).join('\n') };
    case 'package':
      return base;
    case 'mentions-custom-list':
      return { ...base, usernames: (order.details?.usernames ?? []).join('\n') };
    case 'comment-likes':
      return { ...base, quantity, username: order.details?.username ?? '' };
    case 'subscriptions': {
      const sub = order.subscription;
      if (!sub) return { service: order.service, username: order.link };
      return { service: order.service, username: sub.username, min: String(sub.min), max: String(sub.max), posts: String(sub.posts), delay: String(sub.delay), ...(sub.expiry ? { expiry: standardDate(sub.expiry) } : {}) };
    }
    default:
      return { ...base, quantity };
  }
}

/**
 * `add`, with our reference as `Idempotency-Key` (a header, so panels that do not know it are not
 * disturbed by an unknown form field; this product's own /api/v2 replays the first answer for it).
 */
export async function addOrder(endpoint: ProviderEndpoint, order: AddRequest, timeoutMs: number): Promise<AddAnswer> {
  const raw = await callProvider(endpoint, { action: 'add', ...addFields(order) }, timeoutMs, { 'idempotency-key': order.reference });
  if (raw.kind === 'fault') return raw;
  const error = errorOf(raw.body);
  if (error !== undefined) return { kind: 'error', message: error, text: raw.text };
  const given = isRecord(raw.body) ? raw.body.order : undefined;
  // A 2xx JSON answer without an order id may still mean the order exists: not a clear answer.
  if (given === undefined || given === null) return { kind: 'fault', reached: true, detail: 'answer without an order id', text: raw.text };
  const id = positiveIdText(given);
  // {"order": -5}, {"order": 0}, {"order": "abc"}: something answered, but not an order we could follow.
  if (id === undefined) return { kind: 'invalid', detail: 'order id is not a positive integer', text: raw.text };
  return { kind: 'order', providerOrderId: id };
}

/** `fault`: no clear answer (network, timeout, 5xx, not JSON), as opposed to the provider's own refusal. */
export type Answer<T> = { ok: true; value: T } | { ok: false; detail: string; fault?: boolean };

export async function fetchBalance(endpoint: ProviderEndpoint, timeoutMs: number): Promise<Answer<{ balance: string; currency: string }>> {
  const raw = await callProvider(endpoint, { action: 'balance' }, timeoutMs);
  if (raw.kind === 'fault') return { ok: false, detail: raw.detail, fault: true };
  const error = errorOf(raw.body);
  if (error !== undefined) return { ok: false, detail: error };
  if (!isRecord(raw.body)) return { ok: false, detail: 'unexpected answer' };
  const balance = raw.body.balance;
  const text = typeof balance === 'number' ? String(balance) : typeof balance === 'string' ? balance.trim() : '';
  if (!/^-?\d+(\.\d+)?$/.test(text)) return { ok: false, detail: 'answer without a balance' };
  return { ok: true, value: { balance: text, currency: typeof raw.body.currency === 'string' ? raw.body.currency : '' } };
}

export type RemoteService = { service: string; name: string; type: string; category: string; rate: string; min: number; max: number; dripfeed: boolean; refill: boolean; cancel: boolean };

const bool = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';
const positiveInt = (v: unknown) => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** The provider's service list; entries that lack an id, a rate or sane limits are skipped, not guessed. */
export async function fetchServices(endpoint: ProviderEndpoint, timeoutMs: number): Promise<Answer<{ services: RemoteService[]; skipped: number }>> {
  const raw = await callProvider(endpoint, { action: 'services' }, timeoutMs);
  if (raw.kind === 'fault') return { ok: false, detail: raw.detail, fault: true };
  const error = errorOf(raw.body);
  if (error !== undefined) return { ok: false, detail: error };
  if (!Array.isArray(raw.body)) return { ok: false, detail: 'unexpected answer' };
  const services: RemoteService[] = [];
  let skipped = 0;
  for (const item of raw.body) {
    const service = isRecord(item) ? idText(item.service) : undefined;
    const rate = isRecord(item) ? (typeof item.rate === 'number' ? String(item.rate) : typeof item.rate === 'string' ? item.rate.trim() : '') : '';
    const min = isRecord(item) ? positiveInt(item.min) : undefined;
    const max = isRecord(item) ? positiveInt(item.max) : undefined;
    if (!isRecord(item) || service === undefined || !/^\d+(\.\d+)?$/.test(rate) || min === undefined || max === undefined || min > max) {
      skipped++;
      continue;
    }
    services.push({
      service,
      name: typeof item.name === 'string' && item.name.trim() !== '' ? item.name.trim() : `#${service}`,
      type: typeof item.type === 'string' ? item.type : 'Default',
      category: typeof item.category === 'string' ? item.category : '',
      rate,
      min,
      max,
      dripfeed: bool(item.dripfeed),
      refill: bool(item.refill),
      cancel: bool(item.cancel),
    });
  }
  return { ok: true, value: { services, skipped } };
}

/**
 * One order's entry of a `status` answer: a status (remains null when absent; `badRemains` when
 * present but not a non-negative integer; `charge` as the provider sent it, for the profit report's
 * cost), the provider's error for that id, or something that is neither (garbage). `raw` is the
 * entry as the provider sent it, kept for operators.
 */
export type RemoteStatus =
  | { kind: 'status'; status: string; startCount: number | null; remains: number | null; badRemains: boolean; charge?: unknown; raw: string }
  | { kind: 'error'; error: string; raw: string }
  | { kind: 'garbage'; raw: string };

const count = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
};

/** Statuses of up to 100 provider orders (`orders=1,2,3`), by provider order id. */
export async function fetchStatuses(endpoint: ProviderEndpoint, ids: readonly string[], timeoutMs: number): Promise<Answer<Map<string, RemoteStatus>>> {
  const raw = await callProvider(endpoint, { action: 'status', orders: ids.join(',') }, timeoutMs);
  if (raw.kind === 'fault') return { ok: false, detail: raw.detail, fault: true };
  const error = errorOf(raw.body);
  if (error !== undefined) return { ok: false, detail: error };
  if (!isRecord(raw.body)) return { ok: false, detail: 'unexpected answer' };
  const result = new Map<string, RemoteStatus>();
  for (const id of ids) {
    const entry = raw.body[id];
    if (entry === undefined) continue; // not mentioned: asked again next cycle
    const text = answerText(JSON.stringify(entry) ?? String(entry));
    if (isRecord(entry) && typeof entry.error === 'string') result.set(id, { kind: 'error', error: entry.error, raw: text });
    else if (isRecord(entry) && typeof entry.status === 'string' && entry.status.trim() !== '') {
      const given = entry.remains;
      const remains = count(given);
      const absent = given === undefined || given === null || given === '';
      result.set(id, { kind: 'status', status: entry.status, startCount: count(entry.start_count), remains, badRemains: !absent && remains === null, charge: entry.charge, raw: text });
    } else result.set(id, { kind: 'garbage', raw: text });
  }
  return { ok: true, value: result };
}

/**
 * A refill or cancel call's outcome. `unclear`: no clear answer after the request may have
 * arrived (timeout, 5xx, not JSON, an answer that names no usable id or not this order) — the
 * provider may have taken it, so it is never sent again by itself. `text`: the answer as sent.
 */
export type RequestAnswer<T> = { ok: true; value: T; text: string } | { ok: false; detail: string; unclear: boolean; text: string | null; retry?: true };

/**
 * The provider took nothing and asks for the same request again (this product's `v2OrderNotReady`:
 * its order is a moment old and not taken in yet). Read from an error text, or from the JSON body
 * of the 503 it comes with for a single order.
 */
const notReady = (text: string | undefined | null): boolean => {
  if (!text) return false;
  if (text === v2OrderNotReady) return true;
  try {
    return errorOf(JSON.parse(text)) === v2OrderNotReady;
  } catch {
    return false;
  }
};
const retryAnswer = (detail: string, text: string | null) => ({ ok: false as const, detail, unclear: false, text, retry: true as const });

const faultAnswer = (raw: Extract<RawAnswer, { kind: 'fault' }>) => (notReady(raw.text) ? retryAnswer(v2OrderNotReady, raw.text ?? null) : { ok: false as const, detail: raw.detail, unclear: raw.reached, text: raw.text ?? null });

/** `refill` of one provider order: the provider's refill id (a positive integer; `{"refill": -1}` is not one). */
export async function requestRefill(endpoint: ProviderEndpoint, providerOrderId: string, timeoutMs: number): Promise<RequestAnswer<string>> {
  const raw = await callProvider(endpoint, { action: 'refill', order: providerOrderId }, timeoutMs);
  if (raw.kind === 'fault') return faultAnswer(raw);
  const error = errorOf(raw.body);
  if (error !== undefined) return notReady(error) ? retryAnswer(error, raw.text) : { ok: false, detail: error, unclear: false, text: raw.text };
  const id = isRecord(raw.body) ? positiveIdText(raw.body.refill) : undefined;
  return id === undefined ? { ok: false, detail: 'answer without a refill id', unclear: true, text: raw.text } : { ok: true, value: id, text: raw.text };
}

/** A refill status as panels word it ("Pending", "In progress", "Completed", "Rejected"): short letters and spaces only. */
const refillStatusPattern = /^[A-Za-z][A-Za-z _-]{0,39}$/;

/** `refill_status` of one provider refill. */
export async function fetchRefillStatus(endpoint: ProviderEndpoint, providerRefillId: string, timeoutMs: number): Promise<RequestAnswer<string>> {
  const raw = await callProvider(endpoint, { action: 'refill_status', refill: providerRefillId }, timeoutMs);
  if (raw.kind === 'fault') return faultAnswer(raw);
  const error = errorOf(raw.body);
  if (error !== undefined) return { ok: false, detail: error, unclear: false, text: raw.text };
  const status = isRecord(raw.body) && typeof raw.body.status === 'string' ? raw.body.status.trim() : undefined;
  return status === undefined || !refillStatusPattern.test(status) ? { ok: false, detail: 'answer without a readable status', unclear: true, text: raw.text } : { ok: true, value: status, text: raw.text };
}

/** `cancel` of one provider order: ok when the provider took the request for this very order. */
export async function requestCancel(endpoint: ProviderEndpoint, providerOrderId: string, timeoutMs: number): Promise<RequestAnswer<true>> {
  const raw = await callProvider(endpoint, { action: 'cancel', orders: providerOrderId }, timeoutMs);
  if (raw.kind === 'fault') return faultAnswer(raw);
  const error = errorOf(raw.body);
  if (error !== undefined) return notReady(error) ? retryAnswer(error, raw.text) : { ok: false, detail: error, unclear: false, text: raw.text };
  const entry = Array.isArray(raw.body) ? (raw.body as unknown[]).find((e) => isRecord(e) && String(e.order) === providerOrderId) : undefined;
  // An answer about other orders, or not a list: whether this one was canceled cannot be told.
  if (!isRecord(entry)) return { ok: false, detail: 'answer without this order', unclear: true, text: raw.text };
  if (isRecord(entry.cancel) && typeof entry.cancel.error === 'string') return notReady(entry.cancel.error) ? retryAnswer(entry.cancel.error, raw.text) : { ok: false, detail: entry.cancel.error, unclear: false, text: raw.text };
  if (entry.cancel === 1 || entry.cancel === '1' || entry.cancel === true) return { ok: true, value: true, text: raw.text };
  return { ok: false, detail: 'cancel not confirmed', unclear: false, text: raw.text };
}

/**
 * A subscription as a `status` answer reports it (the standard's fields): its state word, the posts
 * done and the orders placed for them (provider order ids, oldest first); `garbage` for an entry
 * that is none of that, `error` for the provider's error for that id.
 */
export type RemoteSubscription =
  | { kind: 'subscription'; status: string; posts: number; orders: string[]; charge?: unknown; raw: string }
  | { kind: 'error'; error: string; raw: string }
  | { kind: 'garbage'; raw: string };

/** Statuses of up to 100 provider subscriptions (`orders=1,2,3`), by provider order id. */
export async function fetchSubscriptions(endpoint: ProviderEndpoint, ids: readonly string[], timeoutMs: number): Promise<Answer<Map<string, RemoteSubscription>>> {
  const raw = await callProvider(endpoint, { action: 'status', orders: ids.join(',') }, timeoutMs);
  if (raw.kind === 'fault') return { ok: false, detail: raw.detail, fault: true };
  const error = errorOf(raw.body);
  if (error !== undefined) return { ok: false, detail: error };
  if (!isRecord(raw.body)) return { ok: false, detail: 'unexpected answer' };
  const result = new Map<string, RemoteSubscription>();
  for (const id of ids) {
    const entry = raw.body[id];
    if (entry === undefined) continue;
    const text = answerText(JSON.stringify(entry) ?? String(entry));
    if (isRecord(entry) && typeof entry.error === 'string') {
      result.set(id, { kind: 'error', error: entry.error, raw: text });
      continue;
    }
    const posts = isRecord(entry) ? count(entry.posts) : null;
    const orders = isRecord(entry) && Array.isArray(entry.orders) ? entry.orders.map(positiveIdText) : [];
    if (!isRecord(entry) || typeof entry.status !== 'string' || posts === null || orders.some((o) => o === undefined)) {
      result.set(id, { kind: 'garbage', raw: text });
      continue;
    }
    result.set(id, { kind: 'subscription', status: entry.status.trim(), posts, orders: orders as string[], charge: entry.charge, raw: text });
  }
  return { ok: true, value: result };
}
