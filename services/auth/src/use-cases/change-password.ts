import { conflict } from '@smm/platform';
import { checkPasswordChange } from '../domain/login-rules.ts';
import { messages } from '../messages.ts';
import type { AuthServices } from './context.ts';
import { RetryLater, ruleError } from './context.ts';
import { callingMember } from './account.ts';

/**
 * Spec §5/§8: 409 when the current password differs. Checks of the current password are limited
 * per member, so a stolen session cannot be used to guess the password.
 */
export async function changePassword(services: AuthServices, userId: string | null, input: { currentPassword?: unknown; newPassword?: unknown }) {
  const member = await callingMember(services, userId);
  const checked = checkPasswordChange(input);
  if (!checked.ok) throw ruleError(checked.violation);
  if (!member.passwordHash) throw conflict(messages.noPasswordForSocial, 'NO_PASSWORD_TO_CHANGE');
  const decision = await services.limits.passwordChecksByMember.hit(member._id);
  if (!decision.allowed) throw new RetryLater(messages.tooManyPasswordChanges, 'TOO_MANY_PASSWORD_CHECKS', decision.retryAfterSeconds);
  if (!(await services.passwords.verify(member.passwordHash, checked.value.currentPassword))) {
    throw conflict(messages.currentPasswordDifferent, 'CURRENT_PASSWORD_DIFFERENT');
  }
  // Every session ends, this one included (the version goes up): the member logs in again (spec §5).
  const version = await services.members.setPasswordHash(member._id, await services.passwords.hash(checked.value.newPassword));
  await services.limits.passwordChecksByMember.reset(member._id);
  services.logger.info({ userId: member._id, version }, 'password changed');
}
