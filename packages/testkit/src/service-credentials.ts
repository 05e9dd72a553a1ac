import jwt from 'jsonwebtoken';

/**
 * The SERVICE_AUTH_SECRET every test process shares. A fixed value is fine here: it guards nothing
 * but throwaway servers on free ports.
 */
export const testServiceSecret = 'test-service-auth-secret-0123456789abcdef';

export type TestCaller = { to: string; userId?: string | null; role?: 'member' | 'staff' | 'admin' | 'service' | null; from?: string };

/**
 * Headers a test sends to call a service as the BFF would: a credential for `to`, acting for
 * `userId` with `role`. It signs what @smm/platform's signServiceCredential signs (HS256, iss, aud,
 * sub, role, exp); testkit cannot import the platform (the platform's tests use testkit), and a
 * drift between the two fails every service test at once.
 */
export function callerHeaders({ to, userId = null, role = null, from = 'bff' }: TestCaller, secret = testServiceSecret, ttlSeconds = 60): { authorization: string } {
  const payload: Record<string, unknown> = {};
  if (role) payload.role = role;
  const token = jwt.sign(payload, secret, { algorithm: 'HS256', issuer: from, audience: to, expiresIn: ttlSeconds, ...(userId ? { subject: userId } : {}) });
  return { authorization: `Bearer ${token}` };
}

/**
 * The credentials an attacker could produce, for tests that they are refused: none at all with the
 * old identity headers, expired, signed with another key, without exp, for another service, unsigned.
 */
export function forgedCallerHeaders(to: string): Record<string, Record<string, string>> {
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: 'bff', aud: to, sub: 'admin-1', role: 'admin' };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  return {
    identityHeadersOnly: { 'x-user-id': 'admin-1', 'x-user-role': 'admin' },
    expired: bearer(jwt.sign({ ...claims, iat: now - 600, exp: now - 300 }, testServiceSecret, { algorithm: 'HS256' })),
    wrongKey: bearer(jwt.sign({ ...claims, exp: now + 60 }, 'another-secret-of-sufficient-length-000000', { algorithm: 'HS256' })),
    noExpiry: bearer(jwt.sign(claims, testServiceSecret, { algorithm: 'HS256' })),
    otherAudience: bearer(jwt.sign({ ...claims, aud: 'not-' + to, exp: now + 60 }, testServiceSecret, { algorithm: 'HS256' })),
    unsigned: bearer(jwt.sign({ ...claims, exp: now + 60 }, '', { algorithm: 'none' })),
  };
}
