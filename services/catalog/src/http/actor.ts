import type { Request } from 'express';
import { roleGate } from '@smm/platform';
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

/** The BFF checks roles; this is the second lock: only admins change the catalogue. */
export const adminOnly = roleGate('admin', messages.adminOnly);
