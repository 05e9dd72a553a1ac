import { notFound } from '@smm/platform';
import { checkLoginInput, loginKey } from '../domain/login-rules.ts';
import { messages } from '../messages.ts';
import type { AuthServices, RequestOrigin } from './context.ts';
import { RetryLater, ruleError } from './context.ts';
import { sessionOrSecondFactor } from './two-factor.ts';

/**
 * Id and password → access token (spec §7, §8: 400 malformed, 404 wrong id or password). An
 * unknown id costs the same argon2 work as a wrong password and gets the same answer. Attempts
 * are admitted by the LoginGuard (per id and address, growing delays; see there) before the check.
 */
export async function logIn(services: AuthServices, input: { id?: unknown; password?: unknown }, origin: RequestOrigin) {
  const checked = checkLoginInput(input);
  if (!checked.ok) throw ruleError(checked.violation);
  const key = loginKey(checked.value.loginId);

  const decision = await services.limits.login.admit(key, origin.clientIp);
  if (!decision.allowed) throw new RetryLater(messages.tooManyLogins, 'TOO_MANY_LOGIN_ATTEMPTS', decision.retryAfterSeconds);

  const member = await services.members.findByLoginKey(key);
  const valid = member?.passwordHash
    ? await services.passwords.verify(member.passwordHash, checked.value.password)
    : await services.passwords.verifyNothing(checked.value.password);
  if (!member || !valid) {
    await services.limits.login.failed(key, origin.clientIp);
    services.logger.info({ correlationId: origin.correlationId, clientIp: origin.clientIp }, 'login refused');
    throw notFound(messages.invalidCredentials, 'INVALID_CREDENTIALS');
  }

  await services.limits.login.succeeded(key, origin.clientIp);
  services.logger.info({ userId: member._id, correlationId: origin.correlationId }, 'login succeeded');
  return sessionOrSecondFactor(services, member);
}
