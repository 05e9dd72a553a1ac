import { createHmac, createPrivateKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { MemberRole } from '@smm/contracts';

export const ACCESS_TOKEN_ISSUER = 'smm-auth';
const SIGNUP_AUDIENCE = 'smm-social-signup';

/** `ver`: the member's token version when issued; a later password change or log-out-everywhere outdates it. */
export type AccessTokenClaims = { sub: string; loginId: string; role: MemberRole; ver: number; sid?: string };

export type SocialProfile = { provider: 'naver' | 'kakao'; providerUserId: string; email: string | null; nickname: string | null };

/**
 * Access tokens are ES256 (the BFF verifies with the public key). Social sign-up continuation
 * tokens are HS256 under a key derived from the private key: only auth can verify them, and a BFF
 * that accepts only ES256 can never take one for an access token.
 */
export class TokenIssuer {
  private readonly privateKey: string;
  private readonly signupKey: Buffer;

  constructor(
    privateKeyPem: string,
    private readonly accessTtlSeconds: number,
    private readonly signupTtlSeconds: number,
  ) {
    this.privateKey = createPrivateKey(privateKeyPem).export({ type: 'pkcs8', format: 'pem' }).toString();
    this.signupKey = createHmac('sha256', this.privateKey).update('social-signup-continuation-v1').digest();
  }

  /** `ttlSeconds`: shorter for operators (issue 41); the configured lifetime otherwise. */
  issueAccessToken(claims: AccessTokenClaims, ttlSeconds = this.accessTtlSeconds): { accessToken: string; expiresIn: number } {
    const accessToken = jwt.sign({ loginId: claims.loginId, role: claims.role, ver: claims.ver, ...(claims.sid !== undefined && { sid: claims.sid }) }, this.privateKey, {
      algorithm: 'ES256',
      subject: claims.sub,
      issuer: ACCESS_TOKEN_ISSUER,
      expiresIn: ttlSeconds,
    });
    return { accessToken, expiresIn: ttlSeconds };
  }

  issueSignupToken(profile: SocialProfile): string {
    return jwt.sign({ p: profile.provider, e: profile.email, n: profile.nickname }, this.signupKey, {
      algorithm: 'HS256',
      subject: profile.providerUserId,
      audience: SIGNUP_AUDIENCE,
      issuer: ACCESS_TOKEN_ISSUER,
      expiresIn: this.signupTtlSeconds,
    });
  }

  /** The profile a continuation token carries, or null when it is invalid, expired or for another provider. */
  readSignupToken(token: string, provider: 'naver' | 'kakao'): SocialProfile | null {
    try {
      const payload = jwt.verify(token, this.signupKey, { algorithms: ['HS256'], audience: SIGNUP_AUDIENCE, issuer: ACCESS_TOKEN_ISSUER });
      if (typeof payload === 'string' || payload.p !== provider || typeof payload.sub !== 'string') return null;
      return {
        provider,
        providerUserId: payload.sub,
        email: typeof payload.e === 'string' ? payload.e : null,
        nickname: typeof payload.n === 'string' ? payload.n : null,
      };
    } catch {
      return null;
    }
  }
}
