import { describe, expect, it } from 'vitest';
import { messages } from '../messages.ts';
import { checkLoginInput, checkPasswordChange, loginKey } from './login-rules.ts';

describe('login rules (spec §5 "Login")', () => {
  it('requires an id without spaces and a password', () => {
    expect(checkLoginInput({ id: 'kim', password: 'pw' })).toEqual({ ok: true, value: { loginId: 'kim', password: 'pw' } });
    expect(checkLoginInput({ password: 'pw' })).toMatchObject({ ok: false, violation: { code: 'ID_REQUIRED', message: messages.idRequired } });
    expect(checkLoginInput({ id: 'k im', password: 'pw' })).toMatchObject({ ok: false, violation: { code: 'ID_HAS_SPACE' } });
    expect(checkLoginInput({ id: 'kim', password: '' })).toMatchObject({ ok: false, violation: { code: 'PASSWORD_REQUIRED' } });
    expect(checkLoginInput({ id: 'kim', password: 7 })).toMatchObject({ ok: false, violation: { code: 'PASSWORD_REQUIRED' } });
  });

  it('treats ids case-insensitively for uniqueness', () => {
    expect(loginKey('Admin')).toBe(loginKey('admin'));
  });
});

describe('password change rules (spec §5)', () => {
  it('requires the current and the new password, the new one without spaces', () => {
    expect(checkPasswordChange({ currentPassword: 'a', newPassword: 'b1234567' })).toEqual({ ok: true, value: { currentPassword: 'a', newPassword: 'b1234567' } });
    expect(checkPasswordChange({ currentPassword: 'a', newPassword: 'abc' })).toMatchObject({ ok: false, violation: { code: 'PASSWORD_LENGTH', message: '비밀번호는 8~20자로 입력해 주세요.' } });
    expect(checkPasswordChange({ currentPassword: 'a', newPassword: 'b'.repeat(21) })).toMatchObject({ ok: false, violation: { code: 'PASSWORD_LENGTH' } });
    expect(checkPasswordChange({ newPassword: 'b' })).toMatchObject({ ok: false, violation: { code: 'CURRENT_PASSWORD_REQUIRED' } });
    expect(checkPasswordChange({ currentPassword: 'a' })).toMatchObject({ ok: false, violation: { code: 'NEW_PASSWORD_REQUIRED' } });
    expect(checkPasswordChange({ currentPassword: 'a', newPassword: 'b c' })).toMatchObject({ ok: false, violation: { code: 'PASSWORD_HAS_SPACE' } });
  });
});
