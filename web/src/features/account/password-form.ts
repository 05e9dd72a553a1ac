import { passwordLengthMessage, passwordLengthOk } from '../../lib/contracts.ts';
import { accountText as t } from './messages.ts';

export type PasswordField = 'currentPassword' | 'newPassword' | 'confirm';

/** Spec §5 password change: current required, new required (8–20 characters), confirmation equal to new. */
export function validatePasswordChange(input: { currentPassword: string; newPassword: string; confirm: string }): { field: PasswordField; message: string } | null {
  if (input.currentPassword === '') return { field: 'currentPassword', message: t.currentRequired };
  if (input.newPassword === '') return { field: 'newPassword', message: t.nextRequired };
  if (!passwordLengthOk(input.newPassword)) return { field: 'newPassword', message: passwordLengthMessage };
  if (input.confirm !== input.newPassword) return { field: 'confirm', message: t.mismatch };
  return null;
}

/** Spec §8: 409 means the current password is different; anything else is the generic error. */
export function passwordChangeErrorMessage(status: number): string {
  return status === 409 ? t.currentDifferent : t.genericError;
}
