import type { Request } from 'express';
import { type EventOrigin, isOperatorRole } from '@smm/contracts';
import { unauthorized, roleGate } from '@smm/platform';
import { messages } from '../domain/messages.ts';

/**
 * The member the calling service acts for, from its verified service credential (req.caller; the
 * platform refuses requests without one). 401 when the credential names no member.
 */
export function callerId(req: Request): string {
  const userId = req.caller.userId;
  if (userId === null) throw unauthorized(messages.userRequired, 'UNAUTHORIZED');
  return userId;
}

export const isAdmin = (req: Request): boolean => req.caller.role === 'admin';
/** Admin or staff (issue 12): staff run the top-up queue but adjust no balances. */
export const isOperator = (req: Request): boolean => isOperatorRole(req.caller.role);

/** Events caused by a request carry its correlation id. */
export const originOf = (req: Request): EventOrigin => ({ correlationId: req.correlationId, causationId: null });

/**
 * The BFF checks roles; this is the second lock on the door, so an internal caller that forgot the
 * check cannot approve a top-up by accident. Admin or staff: staff run the top-up queue.
 */
export const operatorOnly = roleGate('operator', messages.adminOnly);
