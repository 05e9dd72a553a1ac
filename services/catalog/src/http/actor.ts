import type { NextFunction, Request, Response } from 'express';
import { forbidden } from '@smm/platform';
import { messages } from '../domain/messages.ts';
import type { Actor } from '../use-cases/context.ts';

/** The member the calling service acts for (its verified credential); events carry the request's correlation id. */
export function actorOf(req: Request): Actor {
  return { correlationId: req.correlationId, causationId: null, userId: req.caller.userId ?? undefined, role: req.caller.role };
}

/** Operators' changes are logged with who made them: the catalogue has no other audit trail yet. */
export function logChange(req: Request, entity: string, action: string, id?: number | string): void {
  req.log.info({ userId: req.caller.userId, entity, action, id }, 'catalog changed');
}

/**
 * The BFF checks roles; this is the second lock on the door, so an internal caller that forgot the
 * check cannot change the catalogue by accident.
 */
export function adminOnly(req: Request, _res: Response, next: NextFunction): void {
  if (req.caller.role !== 'admin') {
    next(forbidden(messages.adminOnly, 'ADMIN_ONLY'));
    return;
  }
  next();
}
