import { isIP } from 'node:net';
import type { Request } from 'express';
import type { Caller } from '../domain/caller.ts';
import type { CallContext } from '../upstream/service-client.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /**
     * The member: set by `access()` once the token was verified, or from a resolved API key.
     * (`req.caller` is the platform's name for who called a service; the BFF is called by members.)
     */
    member?: Caller;
  }
}

/**
 * The client's address as services should see it (auth limits logins and code sends per address).
 * `req.ip` honours the app's `trust proxy` setting; IPv4 clients on a dual-stack socket are
 * reported in plain IPv4 form.
 */
export function clientIpOf(req: Request): string | null {
  const raw = req.ip ?? req.socket.remoteAddress;
  if (raw === undefined) return null;
  const ip = raw.startsWith('::ffff:') && isIP(raw.slice(7)) === 4 ? raw.slice(7) : raw;
  return isIP(ip) === 0 ? null : ip;
}

export function callContext(req: Request): CallContext {
  return { requestId: req.id, correlationId: req.correlationId, clientIp: clientIpOf(req), caller: req.member, log: req.log };
}

/** The verified caller of a route guarded by `access()`. */
export function callerOf(req: Request): Caller {
  if (!req.member) throw new Error('route is missing its access() guard');
  return req.member;
}
