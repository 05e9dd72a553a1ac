import { type OrderDetails, type ServiceType, linesOf, normalizeUsername, orderDetailLimits, usernameItems } from '@smm/contracts';
import { messages } from './messages.ts';
import { type Problem, problem } from './problem.ts';
import { toNumber } from './numbers.ts';

/** The typed fields as the caller sent them (API v2 names: `comments`, `usernames`, `username`); anything may arrive. */
export type DetailsRequest = { amount?: unknown; comments?: unknown; usernames?: unknown; username?: unknown };

/** What a product's type makes of a request: the quantity to deliver and the details to carry, or the first broken rule. */
export type TypedOrder = { ok: true; amount: number; details: OrderDetails | undefined } | { ok: false; problem: Problem };

const refuse = (code: string, message: string): TypedOrder => ({ ok: false, problem: problem(code, message) });
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Quantity within the product's range (spec §5 rules 3 and 4), with the words of what was counted. */
function inRange(amount: number, range: { min: number; max: number }, counted: 'amount' | 'comments' | 'usernames'): Problem | null {
  if (amount < range.min) return problem('AMOUNT_BELOW_MIN', messages.belowMinOf[counted](range.min));
  if (amount > range.max) return problem('AMOUNT_ABOVE_MAX', messages.aboveMaxOf[counted](range.max));
  return null;
}

/**
 * The type's own fields, checked after the product and the link (spec §5 rules 1–2) and standing
 * in for rules 3–4: custom comments and mention lists are counted (one line, one unit; the quantity
 * sent is ignored, as the panel standard sends none), a package is its fixed quantity, comment likes
 * need the comment author's username before the quantity.
 */
export function typedOrder(type: ServiceType, request: DetailsRequest, range: { min: number; max: number }): TypedOrder {
  switch (type) {
    case 'default':
    case 'comment-likes': {
      let details: OrderDetails | undefined;
      if (type === 'comment-likes') {
        const given = text(request.username).trim();
        if (given === '') return refuse('USERNAME_REQUIRED', messages.usernameRequired);
        const username = normalizeUsername(given);
        if (username === null) return refuse('USERNAME_INVALID', messages.usernameInvalid(given));
        details = { username };
      }
      const amount = toNumber(request.amount);
      if (!Number.isInteger(amount)) return refuse('AMOUNT_INVALID', messages.amountInvalid);
      const out = inRange(amount, range, 'amount');
      return out ? { ok: false, problem: out } : { ok: true, amount, details };
    }
    case 'subscriptions':
      // Checked by checkOrder's subscription rule (domain/subscription.ts) before this is reached.
      return refuse('SERVICE_REQUIRED', messages.serviceRequired);
    case 'package':
      // One package: its quantity is the product's (min = max, catalog's rule).
      return { ok: true, amount: range.min, details: undefined };
    case 'custom-comments': {
      const comments = linesOf(text(request.comments));
      if (comments.length === 0) return refuse('COMMENTS_REQUIRED', messages.commentsRequired);
      const long = comments.findIndex((c) => c.length > orderDetailLimits.commentMaxLength);
      if (long >= 0) return refuse('COMMENT_TOO_LONG', messages.commentTooLong(long + 1));
      const out = inRange(comments.length, range, 'comments');
      return out ? { ok: false, problem: out } : { ok: true, amount: comments.length, details: { comments } };
    }
    case 'mentions-custom-list': {
      const items = usernameItems(text(request.usernames));
      if (items.length === 0) return refuse('USERNAMES_REQUIRED', messages.usernamesRequired);
      const usernames: string[] = [];
      for (const item of items) {
        const name = normalizeUsername(item);
        if (name === null) return refuse('USERNAME_INVALID', messages.usernameInvalid(item));
        if (usernames.includes(name)) return refuse('USERNAMES_DUPLICATE', messages.usernamesDuplicate(name));
        usernames.push(name);
      }
      const out = inRange(usernames.length, range, 'usernames');
      return out ? { ok: false, problem: out } : { ok: true, amount: usernames.length, details: { usernames } };
    }
  }
}
