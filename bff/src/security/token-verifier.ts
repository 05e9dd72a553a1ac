import { createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { type CallerState, callerFromClaims, tokenFrom } from '../domain/caller.ts';

/**
 * Verifies access tokens with auth's public key. Only ES256 is accepted, so neither an unsigned
 * token nor one signed with a shared secret (auth's HS256 sign-up continuation tokens) can pass.
 */
export class TokenVerifier {
  private readonly key: KeyObject;

  constructor(
    publicKeyPem: string,
    private readonly issuer: string,
  ) {
    this.key = createPublicKey(publicKeyPem);
  }

  stateOf(authorizationHeader: string | undefined): CallerState {
    const token = tokenFrom(authorizationHeader);
    if (token === null) return { kind: 'guest' };
    try {
      const claims = jwt.verify(token, this.key, { algorithms: ['ES256'], issuer: this.issuer });
      const caller = callerFromClaims(claims);
      return caller ? { kind: 'signedIn', caller } : { kind: 'invalid' };
    } catch {
      return { kind: 'invalid' };
    }
  }
}
