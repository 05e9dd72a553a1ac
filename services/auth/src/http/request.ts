import { isIP } from 'node:net';
import type { Request } from 'express';
import type { RequestOrigin } from '../use-cases/context.ts';

/**
 * The caller's address as the BFF reports it; without one, per-address limits do not apply. Trusted
 * only because the platform let the request in: it carries a verified service credential.
 */
function clientIp(req: Request): string | null {
  const value = req.get('x-client-ip')?.trim();
  return value !== undefined && isIP(value) !== 0 ? value : null;
}

export function originOf(req: Request): RequestOrigin {
  return { correlationId: req.correlationId, causationId: req.id, clientIp: clientIp(req) };
}

/** The member the calling service acts for (the BFF verified the member's JWT); null when it names none. */
export function callerOf(req: Request): string | null {
  return req.caller.userId;
}
