import type { NextFunction, Request, Response } from 'express';
import type { EventOrigin } from '@smm/contracts';
import { forbidden, unauthorized } from '@smm/platform';
import { messages } from '../domain/messages.ts';

/** The caller's user id as the BFF passed it (from the JWT or API key); 401 without one. */
export function callerId(req: Request): string {
  const userId = req.get('x-user-id')?.trim();
  if (!userId) throw unauthorized(messages.userRequired, 'UNAUTHORIZED');
  return userId;
}

export const isAdmin = (req: Request): boolean => req.get('x-user-role') === 'admin';

/** Events caused by a request carry its correlation id. */
export const originOf = (req: Request): EventOrigin => ({ correlationId: req.correlationId, causationId: null });

/**
 * The BFF checks roles; this is the second lock on the door, so an internal caller that forgot the
 * check cannot approve a top-up by accident.
 */
export function adminOnly(req: Request, _res: Response, next: NextFunction): void {
  if (!isAdmin(req)) {
    next(forbidden(messages.adminOnly, 'ADMIN_ONLY'));
    return;
  }
  next();
}
