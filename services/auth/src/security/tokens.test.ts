import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { PasswordHasher } from './passwords.ts';
import { TokenIssuer } from './tokens.ts';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const profile = { provider: 'naver' as const, providerUserId: 'nv-1', email: 'a@naver.com', nickname: null };

describe('TokenIssuer', () => {
  it('issues ES256 access tokens with sub, loginId, role and the configured lifetime', () => {
    const { accessToken, expiresIn } = new TokenIssuer(pem, 120, 60).issueAccessToken({ sub: 'u-1', loginId: 'kim', role: 'admin', ver: 3 });
    const claims = jwt.verify(accessToken, publicPem, { algorithms: ['ES256'] }) as jwt.JwtPayload;
    expect(claims).toMatchObject({ sub: 'u-1', loginId: 'kim', role: 'admin', ver: 3, iss: 'smm-auth' });
    expect(claims.exp! - claims.iat!).toBe(120);
    expect(expiresIn).toBe(120);
  });

  it('reads back its own continuation tokens only for the same provider', () => {
    const issuer = new TokenIssuer(pem, 120, 60);
    const token = issuer.issueSignupToken(profile);
    expect(issuer.readSignupToken(token, 'naver')).toEqual(profile);
    expect(issuer.readSignupToken(token, 'kakao')).toBeNull();
    expect(issuer.readSignupToken(`${token}x`, 'naver')).toBeNull();
  });

  it('refuses continuation tokens of another key or past their lifetime', () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const token = new TokenIssuer(other, 120, 60).issueSignupToken(profile);
    expect(new TokenIssuer(pem, 120, 60).readSignupToken(token, 'naver')).toBeNull();
    const expired = jwt.sign({ p: 'naver', e: null, n: null, exp: Math.floor(Date.now() / 1000) - 10 }, 'x');
    expect(new TokenIssuer(pem, 120, 60).readSignupToken(expired, 'naver')).toBeNull();
  });

  it('cannot be mistaken for an access token by an ES256 verifier', () => {
    const token = new TokenIssuer(pem, 120, 60).issueSignupToken(profile);
    expect(() => jwt.verify(token, publicPem, { algorithms: ['ES256'] })).toThrow();
  });
});

describe('PasswordHasher', () => {
  it('hashes with argon2id and verifies only the right password', async () => {
    const hasher = new PasswordHasher();
    const hash = await hasher.hash('비밀번호-123');
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(await hasher.verify(hash, '비밀번호-123')).toBe(true);
    expect(await hasher.verify(hash, '비밀번호-124')).toBe(false);
    expect(await hasher.verify('not a hash', 'x')).toBe(false);
    expect(await hasher.verifyNothing('x')).toBe(false);
  });
});
