import type { Request } from 'express';
import { type EventOrigin } from '@smm/contracts';
import { forbidden, unauthorized, roleGate } from '@smm/platform';
import { messages } from '../domain/messages.ts';

/**
 * The member the calling service acts for, from its verified service credential (req.caller; the
 * platform refuses requests without one); events carry the request's correlation.
 */
export type Actor = { userId: string; admin: boolean };

export function actorOf(req: Request): Actor {
  const { userId, role } = req.caller;
  if (userId === null) throw unauthorized(messages.userRequired, 'USER_REQUIRED');
  return { userId, admin: role === 'admin' };
}

export function originOf(req: Request): EventOrigin {
  return { correlationId: req.correlationId, causationId: req.id };
}

/** The BFF checks roles; this is the second lock. Admin or staff (issue 12): both run the order queue. */
export const operatorOnly = roleGate('operator', messages.adminOnly);

/** Whose records a query reads: the caller's own, or anyone's for an operator. */
export function ownerFor(actor: Actor, requested: string | undefined): string {
  if (requested === undefined || requested === actor.userId) return actor.userId;
  if (actor.admin) return requested;
  throw forbidden(messages.otherMember, 'FORBIDDEN');
}
