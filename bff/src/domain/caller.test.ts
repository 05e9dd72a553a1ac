import { describe, expect, it } from 'vitest';
import { callerFromClaims, refusalFor, tokenFrom } from './caller.ts';

describe('tokenFrom', () => {
  it('reads Bearer tokens and bare tokens', () => {
    expect(tokenFrom('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(tokenFrom('bearer   abc')).toBe('abc');
    expect(tokenFrom('abc.def.ghi')).toBe('abc.def.ghi');
  });
  it('treats a missing or empty token as a guest', () => {
    for (const header of [undefined, '', '  ', 'Bearer', 'Bearer ', 'Bearer null', 'undefined', 'null']) {
      expect(tokenFrom(header), String(header)).toBeNull();
    }
  });
});

describe('callerFromClaims', () => {
  it('accepts the claims auth writes', () => {
    expect(callerFromClaims({ sub: 'u-1', loginId: 'kim', role: 'member', ver: 2, iat: 1, exp: 2 })).toEqual({ userId: 'u-1', loginId: 'kim', role: 'member', version: 2 });
  });
  it('refuses missing or odd claims', () => {
    expect(callerFromClaims({ loginId: 'kim', role: 'member' })).toBeNull();
    expect(callerFromClaims({ sub: 'u-1', role: 'member' })).toBeNull();
    expect(callerFromClaims({ sub: 'u-1', loginId: 'kim', role: 'root' })).toBeNull();
    expect(callerFromClaims({ sub: 'u 1', loginId: 'kim', role: 'member' })).toBeNull();
    expect(callerFromClaims('a string')).toBeNull();
  });
  it('refuses a token without exp, and one without the token version', () => {
    expect(callerFromClaims({ sub: 'u-1', loginId: 'kim', role: 'member', ver: 0 })).toBeNull();
    expect(callerFromClaims({ sub: 'u-1', loginId: 'kim', role: 'member', exp: 2 })).toBeNull();
    expect(callerFromClaims({ sub: 'u-1', loginId: 'kim', role: 'member', ver: -1, exp: 2 })).toBeNull();
  });
});

describe('refusalFor', () => {
  const member = { kind: 'signedIn', caller: { userId: 'u', loginId: 'm', role: 'member' } } as const;
  const admin = { kind: 'signedIn', caller: { userId: 'a', loginId: 'admin', role: 'admin' } } as const;
  it('lets signed-in callers through member routes and admins through admin routes', () => {
    expect(refusalFor('signedIn', member)).toBeNull();
    expect(refusalFor('notGuest', member)).toBeNull();
    expect(refusalFor('admin', admin)).toBeNull();
    expect(refusalFor('signedIn', admin)).toBeNull();
  });
  it('refuses members on admin routes (403) and anonymous callers everywhere (401)', () => {
    expect(refusalFor('admin', member)).toBe('adminOnly');
    expect(refusalFor('admin', { kind: 'guest' })).toBe('tokenInvalid');
    expect(refusalFor('signedIn', { kind: 'guest' })).toBe('tokenInvalid');
  });
  it('lets staff through operator routes but not admin-only ones; members through neither', () => {
    const staff = { kind: 'signedIn', caller: { userId: 's', loginId: 'staff', role: 'staff' } } as const;
    expect(refusalFor('operator', staff)).toBeNull();
    expect(refusalFor('operator', admin)).toBeNull();
    expect(refusalFor('admin', staff)).toBe('adminOnly');
    expect(refusalFor('operator', member)).toBe('adminOnly');
    expect(refusalFor('operator', { kind: 'guest' })).toBe('tokenInvalid');
  });
  it('gives guests the refusal message on guest-blocked actions', () => {
    expect(refusalFor('notGuest', { kind: 'guest' })).toBe('guestRefused');
  });
  it('treats a bad token as invalid whatever the route', () => {
    for (const requirement of ['signedIn', 'notGuest', 'admin'] as const) expect(refusalFor(requirement, { kind: 'invalid' })).toBe('tokenInvalid');
  });
});
