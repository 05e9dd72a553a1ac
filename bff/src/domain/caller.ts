import { type Restriction, operatorAreas } from '@smm/contracts';
import { staffMayCall } from './operator-areas.ts';

/**
 * Who is calling, as far as the BFF can tell from the authorization header. Pure rules: the JWT
 * signature is checked in security/, the HTTP answer is chosen in http/.
 */
export const roles = ['member', 'staff', 'admin'] as const;
export type Role = (typeof roles)[number];

/** `version`: the token version the access token was issued under (absent for API-key callers). */
export type Caller = { userId: string; loginId: string; role: Role; version?: number; sessionId?: string; areas?: readonly string[] };

/**
 * - guest: no token at all. The web app sends none in browse mode (spec §3 guest profile), and a
 *   visitor who never logged in looks the same, so both are guests here.
 * - invalid: a token was sent but its signature, expiry or claims do not hold.
 * - restricted: a verified, current token of a member suspended or banned since (issue 12).
 * - signedIn: a verified access token.
 */
export type CallerState = { kind: 'guest' } | { kind: 'invalid' } | { kind: 'restricted'; restriction: Restriction } | { kind: 'signedIn'; caller: Caller };

/**
 * What a route needs: any signed-in caller, a signed-in caller on a guest-blocked action, an
 * operator (admin or staff: the console's queues and lists) or an admin (balance adjustments,
 * settings, the catalogue).
 */
export type Requirement = 'signedIn' | 'notGuest' | 'operator' | 'admin';

/** Why a caller is turned away: 401 token invalid, 401 guest refusal, 403 admin only, 403 restricted, 403 outside a staff member's areas. */
export type Refusal = 'tokenInvalid' | 'guestRefused' | 'adminOnly' | 'restricted' | 'areaRefused';

/**
 * The token in an `authorization` header: `Bearer <jwt>` or the bare token (spec §7 says only that
 * the stored token travels in the header). Empty values and the strings a browser app produces
 * from an unset variable ("null", "undefined") mean no token: a guest.
 */
export function tokenFrom(header: string | undefined): string | null {
  if (header === undefined) return null;
  const value = header.trim().replace(/^bearer\s+/i, '').trim();
  if (value === '' || value === 'null' || value === 'undefined' || /^bearer$/i.test(value)) return null;
  return value;
}

/** Verified JWT claims → caller; anything missing or of the wrong type makes the token invalid. */
export function callerFromClaims(claims: unknown): Caller | null {
  if (typeof claims !== 'object' || claims === null) return null;
  const { sub, loginId, role, ver, exp, sid } = claims as Record<string, unknown>;
  if (typeof sub !== 'string' || !/^[A-Za-z0-9-]{1,64}$/.test(sub)) return null;
  if (typeof loginId !== 'string' || loginId === '') return null;
  if (typeof role !== 'string' || !(roles as readonly string[]).includes(role)) return null;
  // A token that never expires, or without the version sessions are ended by, is not accepted.
  if (typeof exp !== 'number') return null;
  if (typeof ver !== 'number' || !Number.isInteger(ver) || ver < 0) return null;
  if (sid !== undefined && typeof sid !== 'string') return null;
  return { userId: sub, loginId, role: role as Role, version: ver, ...(sid !== undefined && { sessionId: sid }) };
}

/**
 * null when the caller may go on. `path` (below `/api`) holds a staff member to the areas an admin
 * gave them (issue 41; areas from auth's session state, absent = every area).
 */
export function refusalFor(requirement: Requirement, state: CallerState, path?: string): Refusal | null {
  if (state.kind === 'invalid') return 'tokenInvalid';
  if (state.kind === 'restricted') return 'restricted';
  if (state.kind === 'guest') return requirement === 'notGuest' ? 'guestRefused' : 'tokenInvalid';
  if (requirement === 'admin' && state.caller.role !== 'admin') return 'adminOnly';
  if (requirement === 'operator' && state.caller.role === 'member') return 'adminOnly';
  if (requirement === 'operator' && state.caller.role === 'staff' && path !== undefined && !staffMayCall(path, state.caller.areas ?? operatorAreas)) return 'areaRefused';
  return null;
}
