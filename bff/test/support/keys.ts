import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';

/** An ES256 key pair standing in for auth's, and tokens signed the way auth signs them. */
export function testKeys() {
  const pair = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { privateKey, publicKey } = pair();
  const other = pair();
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const sign = (claims: { sub: string; loginId: string; role: string; ver?: number }, options: { expiresIn?: number; key?: typeof privateKey; issuer?: string } = {}) =>
    jwt.sign({ loginId: claims.loginId, role: claims.role, ver: claims.ver ?? 0 }, options.key ?? privateKey, {
      algorithm: 'ES256',
      subject: claims.sub,
      issuer: options.issuer ?? 'smm-auth',
      expiresIn: options.expiresIn ?? 3600,
    });
  return {
    publicPem,
    member: (sub = 'member-1', loginId = 'kim') => sign({ sub, loginId, role: 'member' }),
    admin: () => sign({ sub: 'admin-1', loginId: 'admin', role: 'admin' }),
    staff: () => sign({ sub: 'staff-1', loginId: 'staff', role: 'staff' }),
    expired: () => sign({ sub: 'member-1', loginId: 'kim', role: 'member' }, { expiresIn: -10 }),
    otherKey: () => sign({ sub: 'member-1', loginId: 'kim', role: 'member' }, { key: other.privateKey }),
    otherIssuer: () => sign({ sub: 'member-1', loginId: 'kim', role: 'member' }, { issuer: 'someone-else' }),
    /** Same claims under a shared secret: auth's sign-up continuation tokens look like this. */
    hs256: () => jwt.sign({ loginId: 'kim', role: 'admin' }, 'secret', { algorithm: 'HS256', subject: 'member-1', issuer: 'smm-auth' }),
    unsigned: () => jwt.sign({ loginId: 'kim', role: 'admin', sub: 'member-1', iss: 'smm-auth' }, '', { algorithm: 'none' }),
    /** Issued under an older token version (before a password change or a log-out-everywhere). */
    version: (ver: number, sub = 'member-1') => sign({ sub, loginId: 'kim', role: 'member', ver }),
    /** Signed correctly, but never expires. */
    noExpiry: () => jwt.sign({ loginId: 'kim', role: 'member', ver: 0 }, privateKey, { algorithm: 'ES256', subject: 'member-1', issuer: 'smm-auth' }),
    noRole: () => jwt.sign({ loginId: 'kim' }, privateKey, { algorithm: 'ES256', subject: 'member-1', issuer: 'smm-auth' }),
  };
}
