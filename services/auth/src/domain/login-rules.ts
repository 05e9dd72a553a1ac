import { passwordLengthMessage, passwordLengthOk } from '@smm/contracts';
import { messages } from '../messages.ts';
import { type RuleResult, violation } from './rule-error.ts';

export type Credentials = { loginId: string; password: string };

/** Spec §5 "Login": id required, no space in id, password required. */
export function checkLoginInput(input: { id?: unknown; password?: unknown }): RuleResult<Credentials> {
  const id = typeof input.id === 'string' ? input.id : '';
  const password = typeof input.password === 'string' ? input.password : '';
  if (id.trim() === '') return violation('id', 'ID_REQUIRED', messages.idRequired);
  if (/\s/.test(id)) return violation('id', 'ID_HAS_SPACE', messages.idHasSpace);
  if (id.length > 50) return violation('id', 'ID_TOO_LONG', messages.idTooLong);
  if (password === '') return violation('password', 'PASSWORD_REQUIRED', messages.passwordRequired);
  if (password.length > 128) return violation('password', 'PASSWORD_TOO_LONG', messages.passwordTooLong);
  return { ok: true, value: { loginId: id, password } };
}

/** Spec §5 "Password change": both required; the new one follows the registration space rule. */
export function checkPasswordChange(input: { currentPassword?: unknown; newPassword?: unknown }): RuleResult<{ currentPassword: string; newPassword: string }> {
  const currentPassword = typeof input.currentPassword === 'string' ? input.currentPassword : '';
  const newPassword = typeof input.newPassword === 'string' ? input.newPassword : '';
  if (currentPassword === '') return violation('currentPassword', 'CURRENT_PASSWORD_REQUIRED', messages.currentPasswordRequired);
  if (newPassword === '') return violation('newPassword', 'NEW_PASSWORD_REQUIRED', messages.newPasswordRequired);
  if (/\s/.test(newPassword)) return violation('newPassword', 'PASSWORD_HAS_SPACE', messages.newPasswordHasSpace);
  if (!passwordLengthOk(newPassword)) return violation('newPassword', 'PASSWORD_LENGTH', passwordLengthMessage);
  if (currentPassword.length > 128) return violation('newPassword', 'PASSWORD_TOO_LONG', messages.passwordTooLong);
  return { ok: true, value: { currentPassword, newPassword } };
}

/** Login ids are unique regardless of letter case, so `Admin` cannot shadow `admin`. */
export const loginKey = (loginId: string) => loginId.toLowerCase();
