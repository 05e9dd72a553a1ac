import { describe, expect, it } from 'vitest';
import { roleOfToken } from '../src/auth/token-role.ts';
import { bodyOf } from '../src/features/admin/RecordSection.tsx';
import { settingGroups, settingFields } from '../src/features/admin/catalogue/setting-fields.ts';
import { moved } from '../src/features/admin/fields.tsx';
import { screensFor } from '../src/features/admin/permissions.ts';
import { providerErrorText } from '../src/features/admin/requests/messages.ts';

describe('providerErrorText', () => {
  it('says provider failures in Korean, keeping the technical word in brackets, and passes unknown ones through', () => {
    expect(providerErrorText('network error')).toBe('네트워크 오류');
    expect(providerErrorText('timeout')).toBe('응답 시간 초과');
    expect(providerErrorText('ECONNREFUSED')).toBe('연결 거부(ECONNREFUSED)');
    expect(providerErrorText('HTTP 200: not JSON')).toBe('JSON이 아닌 답(HTTP 200)');
    expect(providerErrorText('HTTP 503')).toBe('공급처 서버 오류(HTTP 503)');
    expect(providerErrorText('answer without a refill id')).toBe('리필 번호가 없는 답');
    expect(providerErrorText('Invalid API key')).toBe('Invalid API key');
  });
});
import { settingKeys } from '../src/lib/contracts.ts';
import { isUrgent, timeLeft } from '../src/features/admin/top-ups/time-left.ts';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const tokenWith = (claims: unknown) => `${b64url({ alg: 'ES256' })}.${b64url(claims)}.signature`;

describe('roleOfToken', () => {
  it('reads the role claim of a UTF-8 payload (Korean login ids)', () => {
    expect(roleOfToken(tokenWith({ sub: 'u', role: 'staff', loginId: '운영자~~>>??' }))).toBe('staff');
    expect(roleOfToken(tokenWith({ sub: 'u', role: 'admin' }))).toBe('admin');
  });
  it('answers null for garbage', () => {
    expect(roleOfToken('nonsense')).toBeNull();
    expect(roleOfToken('a.!!!.c')).toBeNull();
    expect(roleOfToken(tokenWith({ sub: 'u' }))).toBeNull();
  });
});

describe('timeLeft', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('counts hours and minutes down to the expiry', () => {
    expect(timeLeft('2026-01-01T03:00:00Z', now)).toBe('3시간 0분 남음');
    expect(timeLeft('2026-01-01T02:13:59Z', now)).toBe('2시간 13분 남음');
    expect(timeLeft('2026-01-01T00:45:00Z', now)).toBe('45분 남음');
    expect(timeLeft('2026-01-01T00:00:30Z', now)).toBe('1분 미만 남음');
  });
  it('answers null once the time is up or for a bad date', () => {
    expect(timeLeft('2026-01-01T00:00:00Z', now)).toBeNull();
    expect(timeLeft('2025-12-31T23:00:00Z', now)).toBeNull();
    expect(timeLeft('not a date', now)).toBeNull();
  });
  it('marks the last 30 minutes urgent', () => {
    expect(isUrgent('2026-01-01T00:29:00Z', now)).toBe(true);
    expect(isUrgent('2026-01-01T00:31:00Z', now)).toBe(false);
    expect(isUrgent('2025-12-31T23:59:00Z', now)).toBe(false);
  });
});

describe('screensFor', () => {
  it('gives staff no admin-only screen', () => {
    expect(screensFor('staff').every((s) => !s.adminOnly)).toBe(true);
    expect(screensFor('admin').map((s) => s.path)).toContain('top-ups');
  });
  it('opens on the dashboard for both roles; both settle the review queue, providers are admins\' only', () => {
    expect(screensFor('staff')[0]?.path).toBe('dashboard');
    expect(screensFor('admin')[0]?.path).toBe('dashboard');
    expect(screensFor('admin').map((s) => s.path)).toEqual(expect.arrayContaining(['providers', 'review']));
    expect(screensFor('staff').map((s) => s.path)).not.toContain('providers');
    expect(screensFor('staff').map((s) => s.path)).toContain('review');
    // Issue 41: the refill and cancel request queue is settled by staff too.
    expect(screensFor('staff').map((s) => s.path)).toContain('requests');
  });
  it('profit is the admin\'s; both roles have the exports screen (issue 41)', () => {
    expect(screensFor('admin').map((s) => s.path)).toEqual(expect.arrayContaining(['profit', 'exports']));
    expect(screensFor('staff').map((s) => s.path)).not.toContain('profit');
    expect(screensFor('staff').map((s) => s.path)).toContain('exports');
  });
});

describe('catalogue and site screens', () => {
  it('are admins\' only: staff edit neither the catalogue, the notices nor the settings', () => {
    expect(screensFor('admin').map((s) => s.path)).toEqual(expect.arrayContaining(['catalogue', 'content', 'settings']));
    for (const path of ['catalogue', 'content', 'settings']) expect(screensFor('staff').map((s) => s.path)).not.toContain(path);
  });
  it('show every setting key exactly once', () => {
    const shown = settingGroups.flatMap((g) => g.keys);
    expect([...shown].sort()).toEqual(Object.values(settingKeys).sort());
    expect(Object.keys(settingFields).sort()).toEqual(Object.values(settingKeys).sort());
  });
  it('move one row up or down, and stop at the ends', () => {
    expect(moved([1, 2, 3], 2, -1)).toEqual([1, 3, 2]);
    expect(moved([1, 2, 3], 0, 1)).toEqual([2, 1, 3]);
    expect(moved([1, 2, 3], 0, -1)).toEqual([1, 2, 3]);
    expect(moved([1, 2, 3], 2, 1)).toEqual([1, 2, 3]);
  });
  it('send every field on create and only the changed ones on update, typed as the API wants', () => {
    const fields = [
      { name: 'id', label: '', kind: 'integer', createOnly: true },
      { name: 'text', label: '', kind: 'text' },
      { name: 'min', label: '', kind: 'integer' },
      { name: 'visible', label: '', kind: 'flag' },
    ] as const;
    expect(bodyOf(fields, { id: '3', text: '유튜브', min: '12a', visible: true }, null)).toEqual({ id: 3, text: '유튜브', min: '12a', visible: true });
    const before = { id: '3', text: '유튜브', min: '10', visible: true };
    expect(bodyOf(fields, { ...before, min: '20', id: '9' }, before)).toEqual({ min: 20 });
    expect(bodyOf(fields, before, before)).toEqual({});
  });
});
