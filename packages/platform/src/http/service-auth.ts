import { type KeyObject, createSecretKey } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import jwt from 'jsonwebtoken';
import { isOperatorRole } from '@smm/contracts';
import { forbidden, genericMessages, unauthorized } from './errors.ts';

/** The roles a service credential may carry: a member's role, or `service` for a service acting on its own. */
export const callerRoles = ['member', 'staff', 'admin', 'service'] as const;
export type CallerRole = (typeof callerRoles)[number];

/**
 * Who called this service, from a verified service credential: the calling service (`iss`), and the
 * member it acts for (`sub`, `role`) when it acts for one. Nothing else about identity is read from
 * a request.
 */
export type ServiceCaller = { service: string; userId: string | null; role: CallerRole | null };

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the service-credential check on every route but /healthz and /readyz. */
    caller: ServiceCaller;
  }
}

export type ServiceCredentialClaims = { from: string; to: string; userId?: string | null | undefined; role?: CallerRole | null | undefined };

/** Shortest secret accepted: HS256 with fewer than 256 bits of key is guessable offline from one captured token. */
export const minServiceSecretLength = 32;

const algorithm = 'HS256';
const safeName = /^[a-z][a-z0-9-]{0,40}$/;
const safeUserId = /^[A-Za-z0-9_-]{1,64}$/;

const keys = new Map<string, KeyObject>();
/**
 * The secret as a key object, made once. Given a string, jsonwebtoken first tries to read it as a
 * PEM private (sign) or public (verify) key and falls back to a secret key after the parse throws:
 * ~1 ms per call under load, the largest single cost of an order in the BFF and the order service.
 */
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size > 16) keys.clear();
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

/**
 * A short-lived credential one service presents to another: an HS256 JWT with iss = calling
 * service, aud = called service, sub = acting member, role, iat and exp. Short-lived so a token seen
 * in a log or a capture is useless a minute later.
 */
export function signServiceCredential(secret: string, claims: ServiceCredentialClaims, ttlSeconds = 60): string {
  if (secret.length < minServiceSecretLength) throw new Error(`service auth secret must be at least ${minServiceSecretLength} characters`);
  const payload: Record<string, unknown> = {};
  if (claims.role) payload.role = claims.role;
  return jwt.sign(payload, keyOf(secret), {
    algorithm,
    issuer: claims.from,
    audience: claims.to,
    expiresIn: ttlSeconds,
    ...(claims.userId ? { subject: claims.userId } : {}),
  });
}

type Reusable = { token: string; until: number };

/**
 * signServiceCredential for a caller that sends many calls with the same claims (the BFF: one per
 * request): the same token is presented again for a sixth of its lifetime, so it still has at
 * least five sixths left when it arrives, and a member's calls cost one signature per 10 s rather
 * than one each. Bounded: it forgets everything when it holds `maxEntries` claim sets.
 */
export class ServiceCredentialSigner {
  private readonly tokens = new Map<string, Reusable>();

  constructor(
    private readonly secret: string,
    private readonly ttlSeconds = 60,
    private readonly maxEntries = 10_000,
  ) {
    if (secret.length < minServiceSecretLength) throw new Error(`service auth secret must be at least ${minServiceSecretLength} characters`);
  }

  sign(claims: ServiceCredentialClaims): string {
    const id = `${claims.from}\n${claims.to}\n${claims.userId ?? ''}\n${claims.role ?? ''}`;
    const now = Date.now();
    const held = this.tokens.get(id);
    if (held && now < held.until) return held.token;
    if (!held && this.tokens.size >= this.maxEntries) this.tokens.clear();
    const token = signServiceCredential(this.secret, claims, this.ttlSeconds);
    this.tokens.set(id, { token, until: now + (this.ttlSeconds * 1000) / 6 });
    return token;
  }
}

/** `{ authorization: 'Bearer …' }` for one call. */
export function serviceAuthHeaders(secret: string, claims: ServiceCredentialClaims, ttlSeconds = 60): { authorization: string } {
  return { authorization: `Bearer ${signServiceCredential(secret, claims, ttlSeconds)}` };
}

/** Verified claims → caller, or null when the token does not hold or its claims are malformed. */
export function verifyServiceCredential(token: string, secret: string, audience: string): ServiceCaller | null {
  let claims: unknown;
  try {
    // Algorithm pinned (no `none`, no confusion with an asymmetric key); exp required, not just checked when present.
    claims = jwt.verify(token, keyOf(secret), { algorithms: [algorithm], audience, clockTolerance: 5 });
  } catch {
    return null;
  }
  if (typeof claims !== 'object' || claims === null) return null;
  const { iss, sub, role, exp } = claims as Record<string, unknown>;
  if (typeof exp !== 'number') return null;
  if (typeof iss !== 'string' || !safeName.test(iss)) return null;
  if (sub !== undefined && (typeof sub !== 'string' || !safeUserId.test(sub))) return null;
  if (role !== undefined && (typeof role !== 'string' || !(callerRoles as readonly string[]).includes(role))) return null;
  return { service: iss, userId: sub ?? null, role: (role as CallerRole | undefined) ?? null };
}

export type ServiceAuthOptions = { secret: string; audience: string };

/**
 * Refuses every request without a valid credential for this service (401), and sets `req.caller`
 * for the ones with one. Mounted after /healthz and /readyz, which probes reach without one.
 */
export function requireServiceCredential({ secret, audience }: ServiceAuthOptions) {
  if (secret.length < minServiceSecretLength) throw new Error(`service auth secret must be at least ${minServiceSecretLength} characters`);
  // A caller presents the same token for a while (ServiceCredentialSigner): a token verified once
  // is known until it expires, so repeated calls skip the HMAC and the claim parsing. Only tokens
  // that verified are remembered; bounded by forgetting everything at `maxKnown`.
  const known = new Map<string, { caller: ServiceCaller; untilMs: number }>();
  const maxKnown = 10_000;
  const check = (token: string): ServiceCaller | null => {
    const now = Date.now();
    const hit = known.get(token);
    if (hit) {
      if (now <= hit.untilMs) return { ...hit.caller };
      known.delete(token);
    }
    const caller = verifyServiceCredential(token, secret, audience);
    if (caller !== null) {
      const exp = (jwt.decode(token) as { exp?: unknown } | null)?.exp;
      if (typeof exp === 'number') {
        if (known.size >= maxKnown) known.clear();
        // The same tolerance verify allows (clockTolerance 5 s).
        known.set(token, { caller, untilMs: (exp + 5) * 1000 });
      }
    }
    return caller;
  };
  return (req: Request, _res: Response, next: NextFunction) => {
    const header = req.get('authorization');
    const token = header?.match(/^Bearer\s+(\S+)$/i)?.[1];
    const caller = token === undefined ? null : check(token);
    if (caller === null) {
      req.log.warn({ path: req.path, presented: token !== undefined }, 'service credential refused');
      next(unauthorized(genericMessages.unauthorized, 'SERVICE_CREDENTIAL_INVALID'));
      return;
    }
    req.caller = caller;
    next();
  };
}

/**
 * The second lock behind the BFF's role checks, so an internal caller that forgot one cannot act as
 * an operator by accident: `admin` lets only admins through, `operator` admins and staff (issue 12);
 * anyone else gets 403 `ADMIN_ONLY` with the service's Korean `message`.
 */
export function roleGate(who: 'admin' | 'operator', message: string) {
  const allows = who === 'admin' ? (role: CallerRole | null) => role === 'admin' : isOperatorRole;
  return (req: Request, _res: Response, next: NextFunction): void => {
    next(allows(req.caller.role) ? undefined : forbidden(message, 'ADMIN_ONLY'));
  };
}
