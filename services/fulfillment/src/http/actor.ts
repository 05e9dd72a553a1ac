import type { Request } from 'express';
import { type EventOrigin } from '@smm/contracts';
import { unauthorized, roleGate } from '@smm/platform';
import { messages } from '../domain/messages.ts';

/** The one place that reads who is calling: the verified service credential (req.caller). */
export type Actor = { userId: string; admin: boolean };

export function actorOf(req: Request): Actor {
  const { userId, role } = req.caller;
  if (userId === null) throw unauthorized(messages.userRequired, 'USER_REQUIRED');
  return { userId, admin: role === 'admin' };
}

export function originOf(req: Request): EventOrigin {
  return { correlationId: req.correlationId, causationId: req.id };
}

/** The BFF checks roles; this is the second lock. */
export const adminOnly = roleGate('admin', messages.adminOnly);

/**
 * Admin or staff (issue 12): the order list's forwarding lookups and the review queue. Provider
 * management (providers, mappings, price rules, balances, notices, sync) stays behind adminOnly.
 */
export const operatorOnly = roleGate('operator', messages.adminOnly);

/** Who asked, for the audit record of an operator's change (issue 12). */
export function askedBy(req: Request): { caller: Request['caller']; origin: EventOrigin } {
  return { caller: req.caller, origin: originOf(req) };
}
