import { AutoOrderStatus, type SubscriptionState, type SubscriptionTerms, expiryEnd, normalizeUsername, subscriptionLimits } from '@smm/contracts';
import { messages } from './messages.ts';
import { toNumber } from './numbers.ts';
import { type Problem, problem } from './problem.ts';

const A = AutoOrderStatus.values;

/** The subscription fields as the caller sent them (API v2 names); anything may arrive. */
export type SubscriptionRequest = { username?: unknown; link?: unknown; min?: unknown; max?: unknown; posts?: unknown; delay?: unknown; expiry?: unknown };

export type TermsVerdict = { ok: true; terms: SubscriptionTerms } | { ok: false; problem: Problem };

const refuse = (code: string, message: string): TermsVerdict => ({ ok: false, problem: problem(code, message) });
const kstDay = (at: Date): string => new Date(at.getTime() + 9 * 3600_000).toISOString().slice(0, 10);

/** `yyyy-mm-dd` or the standard's `dd/mm/yyyy` → `yyyy-mm-dd` of a real calendar day; null otherwise. */
export function expiryDate(text: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const dmy = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : dmy ? [dmy[3], dmy[2], dmy[1]] : [];
  if (y === undefined || m === undefined || d === undefined) return null;
  const day = `${y}-${m}-${d}`;
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day ? null : day;
}

/**
 * A subscription's own fields, after the product (spec §5 rule 1) and standing in for the link and
 * quantity rules: the profile `username` (or the link field, which the web form and older clients
 * fill), `min` ≤ `max` within the product's range, 1 ≤ `posts` ≤ 1,000 whole posts, `delay` one of
 * the standard's minutes, `expiry` empty or a day from today (KST) up to a year ahead.
 */
export function subscriptionTerms(request: SubscriptionRequest, range: { min: number; max: number }, now: Date): TermsVerdict {
  const given = (typeof request.username === 'string' && request.username.trim() !== '' ? request.username : typeof request.link === 'string' ? request.link : '').trim();
  if (given === '') return refuse('USERNAME_REQUIRED', messages.subscriptionUsernameRequired);
  const username = normalizeUsername(given);
  if (username === null) return refuse('USERNAME_INVALID', messages.usernameInvalid(given));
  const min = toNumber(request.min);
  if (!Number.isSafeInteger(min)) return refuse('SUBSCRIPTION_MIN_INVALID', messages.subscriptionMinInvalid);
  const max = toNumber(request.max);
  if (!Number.isSafeInteger(max)) return refuse('SUBSCRIPTION_MAX_INVALID', messages.subscriptionMaxInvalid);
  if (min < range.min) return refuse('AMOUNT_BELOW_MIN', messages.belowMinOf.amount(range.min));
  if (max > range.max) return refuse('AMOUNT_ABOVE_MAX', messages.aboveMaxOf.amount(range.max));
  if (min > max) return refuse('SUBSCRIPTION_MIN_ABOVE_MAX', messages.subscriptionMinAboveMax);
  const posts = toNumber(request.posts);
  if (!Number.isSafeInteger(posts) || posts < 1 || posts > subscriptionLimits.maxPosts) return refuse('SUBSCRIPTION_POSTS_INVALID', messages.subscriptionPostsInvalid);
  const delay = request.delay === undefined || request.delay === null || request.delay === '' ? 0 : toNumber(request.delay);
  if (!subscriptionLimits.delays.includes(delay)) return refuse('SUBSCRIPTION_DELAY_INVALID', messages.subscriptionDelayInvalid);
  let expiry: string | null = null;
  if (typeof request.expiry === 'string' && request.expiry.trim() !== '') {
    expiry = expiryDate(request.expiry.trim());
    const today = kstDay(now);
    const latest = kstDay(new Date(now.getTime() + subscriptionLimits.maxExpiryDays * 86_400_000));
    if (expiry === null || expiry < today || expiry > latest) return refuse('SUBSCRIPTION_EXPIRY_INVALID', messages.subscriptionExpiryInvalid);
  } else if (request.expiry !== undefined && request.expiry !== null && request.expiry !== '') {
    return refuse('SUBSCRIPTION_EXPIRY_INVALID', messages.subscriptionExpiryInvalid);
  }
  return { ok: true, terms: { username, min, max, posts, delay, expiry } };
}

/** What the rules read of a stored subscription. */
export type SubscriptionFacts = {
  status: number | null;
  state: SubscriptionState;
  posts: number;
  completed: number;
  chargeDeci: number;
  perRunDeci: number;
  refundedDeci: number;
  expiry: string | null;
};

/** Whether the subscription's expiry day is over at `now`. */
export function isPastExpiry(facts: { expiry: string | null }, now: Date): boolean {
  return facts.expiry !== null && now.getTime() >= expiryEnd(facts.expiry).getTime();
}

export type PostVerdict =
  | { ok: true; post: number; completedAfter: number; statusAfter: number; stateAfter: SubscriptionState; finished: boolean }
  | { ok: false; problem: Problem; expire?: true };

/**
 * A new post becomes the subscription's next order: only while it is active (paused, ended or
 * unpaid: refused), only as the next post (`post`, when given, must be completed + 1, so a repeated
 * record changes nothing) and only before the expiry (past it: refused, and the caller expires it).
 */
export function recordPost(facts: SubscriptionFacts, post: number | undefined, now: Date): PostVerdict {
  if (facts.status !== A.ACTIVE) return { ok: false, problem: problem('SUBSCRIPTION_NOT_ACTIVE', facts.status === null ? messages.subscriptionNotActive : messages.subscriptionEnded) };
  if (facts.state === 'paused') return { ok: false, problem: problem('SUBSCRIPTION_PAUSED', messages.subscriptionPaused) };
  if (facts.state !== 'active') return { ok: false, problem: problem('SUBSCRIPTION_NOT_ACTIVE', messages.subscriptionEnded) };
  if (isPastExpiry(facts, now)) return { ok: false, problem: problem('SUBSCRIPTION_EXPIRED', messages.subscriptionExpired), expire: true };
  const next = facts.completed + 1;
  if (post !== undefined && post !== next) return { ok: false, problem: problem('SUBSCRIPTION_POST_INVALID', messages.subscriptionPostInvalid) };
  if (next > facts.posts) return { ok: false, problem: problem('SUBSCRIPTION_NOT_ACTIVE', messages.subscriptionEnded) };
  const finished = next === facts.posts;
  const statusAfter = finished ? (facts.refundedDeci > 0 ? A.PARTIAL : A.COMPLETED) : A.ACTIVE;
  return { ok: true, post: next, completedAfter: next, statusAfter, stateAfter: finished ? 'completed' : 'active', finished };
}

export type EndVerdict = { ok: true; refundDeci: number; postsDone: number; statusAfter: number; stateAfter: 'expired' | 'canceled' } | { ok: false; problem: Problem };

/**
 * Ending a subscription (expired, canceled) gives back the posts not done, once: charge − price of a
 * post × posts done (= price of a post × posts left, exact). Only an active or paused subscription
 * ends; an ended one refuses, so a second cancel or a cancel after expiry moves no money.
 * The posts' own orders keep their money (their refunds, if any, are theirs).
 */
export function endSubscription(facts: SubscriptionFacts, to: 'expired' | 'canceled'): EndVerdict {
  if (facts.status !== A.ACTIVE || (facts.state !== 'active' && facts.state !== 'paused')) return { ok: false, problem: problem('SUBSCRIPTION_NOT_ACTIVE', facts.status === null ? messages.subscriptionNotActive : messages.subscriptionEnded) };
  const refundDeci = facts.chargeDeci - facts.perRunDeci * facts.completed;
  // Expired keeps what was done: partial (shown as completed) when posts were left; canceled is canceled.
  const statusAfter = to === 'canceled' ? A.CANCELED : facts.completed > 0 ? A.PARTIAL : A.CANCELED;
  return { ok: true, refundDeci, postsDone: facts.completed, statusAfter, stateAfter: to };
}

export type PauseVerdict = { ok: true; stateAfter: 'active' | 'paused' } | { ok: false; problem: Problem };

/** Pause an active subscription, resume a paused one; anything else is refused and changes nothing. */
export function pauseOrResume(facts: SubscriptionFacts, to: 'paused' | 'active'): PauseVerdict {
  if (facts.status !== A.ACTIVE) return { ok: false, problem: problem('SUBSCRIPTION_NOT_ACTIVE', messages.subscriptionEnded) };
  if (to === 'paused' && facts.state !== 'active') return { ok: false, problem: problem('SUBSCRIPTION_NOT_ACTIVE', messages.subscriptionNotActive) };
  if (to === 'active' && facts.state !== 'paused') return { ok: false, problem: problem('SUBSCRIPTION_NOT_PAUSED', messages.subscriptionNotPaused) };
  return { ok: true, stateAfter: to };
}
