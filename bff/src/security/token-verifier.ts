import { createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { restrictionBlocks } from '@smm/contracts';
import { type CallerState, callerFromClaims, tokenFrom } from '../domain/caller.ts';
import type { CallContext } from '../upstream/service-client.ts';
import type { SessionStates } from './session-states.ts';

/**
 * Verifies access tokens with auth's public key. Only ES256 is accepted, so neither an unsigned
 * token nor one signed with a shared secret (auth's HS256 sign-up continuation tokens) can pass.
 * A valid signature is not enough: the token's version must still be the member's, and the
 * member must exist and not be suspended or banned (SessionStates; issue 12).
 */
export class TokenVerifier {
  private readonly key: KeyObject;

  constructor(
    publicKeyPem: string,
    private readonly issuer: string,
    readonly sessions: SessionStates,
  ) {
    this.key = createPublicKey(publicKeyPem);
  }

  async stateOf(authorizationHeader: string | undefined, ctx: CallContext): Promise<CallerState> {
    const token = tokenFrom(authorizationHeader);
    if (token === null) return { kind: 'guest' };
    let caller;
    try {
      caller = callerFromClaims(jwt.verify(token, this.key, { algorithms: ['ES256'], issuer: this.issuer }));
    } catch {
      return { kind: 'invalid' };
    }
    if (!caller) return { kind: 'invalid' };
    // Fails closed: while auth cannot say, the request gets a 503 rather than an unchecked pass.
    const session = await this.sessions.get(ctx, caller.userId);
    // Deleted, outdated by a password change or log-out-everywhere, or a disabled operator (issue 41).
    if (session.status === 'deleted' || session.status === 'disabled' || session.version !== caller.version) return { kind: 'invalid' };
    // A token whose role is no longer the account's (auth holds roles) is void: the holder signs in again.
    if (session.role !== undefined && session.role !== caller.role) return { kind: 'invalid' };
    // This device logged out, or its session was ended for a reused refresh token.
    if (caller.sessionId !== undefined && session.endedSessions?.includes(caller.sessionId)) return { kind: 'invalid' };
    if (session.restriction && restrictionBlocks(session.restriction, new Date())) return { kind: 'restricted', restriction: session.restriction };
    // A ban without a restriction record (an auth before restrictions) still ends the session.
    if (session.status === 'banned') return { kind: 'invalid' };
    return { kind: 'signedIn', caller: session.areas === undefined ? caller : { ...caller, areas: session.areas } };
  }
}
