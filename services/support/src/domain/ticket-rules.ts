import { type TicketCategory, type TicketStatus, freeTextProblem, ticketCategories, ticketLimits } from '@smm/contracts';
import { messages } from '../messages.ts';

/** A refusal: a stable code and the Korean message the member or operator sees. */
export type Problem = { code: string; message: string };

const problem = (code: string, message: string): Problem => ({ code, message });

/** Trims and checks a required free text (a title: one line; a message: several). */
export function checkText(value: string | undefined, kind: 'title' | 'body' | 'savedReplyTitle'): { ok: true; text: string } | { ok: false; problem: Problem } {
  const multiline = kind === 'body';
  const text = (value ?? '').trim();
  const required = kind === 'title' ? messages.titleRequired : kind === 'body' ? messages.bodyRequired : messages.savedReplyTitleRequired;
  if (text === '') return { ok: false, problem: problem(kind === 'body' ? 'BODY_REQUIRED' : 'TITLE_REQUIRED', required) };
  const max = kind === 'title' ? ticketLimits.titleMax : kind === 'body' ? ticketLimits.bodyMax : ticketLimits.savedReplyTitleMax;
  // Counted in characters as a person sees them (a Hangul syllable or an emoji is one).
  if ([...text].length > max) {
    const tooLong = kind === 'title' ? messages.titleTooLong : kind === 'body' ? messages.bodyTooLong : messages.savedReplyTitleTooLong;
    return { ok: false, problem: problem(kind === 'body' ? 'BODY_TOO_LONG' : 'TITLE_TOO_LONG', tooLong) };
  }
  const bad = freeTextProblem(text, multiline);
  if (bad === 'unsafe') return { ok: false, problem: problem('TEXT_UNSAFE', messages.textUnsafe) };
  if (bad === 'invisible') return { ok: false, problem: problem('TEXT_INVISIBLE', messages.textInvisible) };
  // Line breaks kept as the writer typed them, only normalised (a CRLF is one break).
  return { ok: true, text: multiline ? text.replace(/\r\n?/g, '\n') : text };
}

export function checkCategory(value: string | undefined): TicketCategory | Problem {
  return (ticketCategories as readonly string[]).includes(value ?? '') ? (value as TicketCategory) : problem('CATEGORY_INVALID', messages.categoryInvalid);
}

export const isProblem = (value: unknown): value is Problem => typeof value === 'object' && value !== null && 'code' in value && 'message' in value;

/** Order numbers named by a ticket: at most `ordersMax`, each once, in the order given. */
export function checkOrderIds(ids: readonly number[] | undefined): number[] | Problem {
  const unique = [...new Set(ids ?? [])];
  return unique.length > ticketLimits.ordersMax ? problem('ORDERS_TOO_MANY', messages.ordersTooMany) : unique;
}

/** Tickets that still count against a member's open limit. */
export const activeStatuses: readonly TicketStatus[] = ['open', 'answered'];

/**
 * The sliding one-minute window of a member's messages: the times still inside it (oldest dropped),
 * and whether one more fits under `perMinute`.
 */
export function messageWindow(recent: readonly Date[], now: Date, perMinute: number): { kept: Date[]; allowed: boolean } {
  const since = now.getTime() - 60_000;
  const kept = recent.filter((at) => at.getTime() > since);
  return { kept, allowed: kept.length < perMinute };
}

/** Who may write into a ticket in its state, and what it becomes. */
export function afterMessage(status: TicketStatus, author: 'member' | 'operator'): TicketStatus | Problem {
  if (status === 'closed') return problem('TICKET_CLOSED', messages.ticketClosed);
  return author === 'member' ? 'open' : 'answered';
}
