import type { NextFunction, Request, Response } from 'express';
import type { EventOrigin } from '@smm/contracts';
import { forbidden, unauthorized } from '@smm/platform';
import { messages } from '../domain/messages.ts';

/** The caller as the BFF passed it (x-user-id, x-user-role); events carry the request's correlation. */
export type Actor = { userId: string; admin: boolean };

export function actorOf(req: Request): Actor {
  const userId = req.get('x-user-id');
  if (userId === undefined || userId.trim() === '') throw unauthorized(messages.userRequired, 'USER_REQUIRED');
  return { userId, admin: req.get('x-user-role') === 'admin' };
}

export function originOf(req: Request): EventOrigin {
  return { correlationId: req.correlationId, causationId: req.id };
}

/** The BFF checks roles; this is the second lock, so an internal caller cannot skip it by accident. */
export function adminOnly(req: Request, _res: Response, next: NextFunction): void {
  if (req.get('x-user-role') !== 'admin') {
    next(forbidden(messages.adminOnly, 'ADMIN_ONLY'));
    return;
  }
  next();
}

/** Whose records a query reads: the caller's own, or anyone's for an operator. */
export function ownerFor(actor: Actor, requested: string | undefined): string {
  if (requested === undefined || requested === actor.userId) return actor.userId;
  if (actor.admin) return requested;
  throw forbidden(messages.otherMember, 'FORBIDDEN');
}
