import { loginKey } from '../domain/login-rules.ts';
import { type LocalRegistrationInput, checkLocalRegistration } from '../domain/registration-rules.ts';
import type { AuthServices, RequestOrigin } from './context.ts';
import { ruleError } from './context.ts';
import { createMember } from './create-member.ts';
import { loadSettings } from './load-settings.ts';

/** Plain-form sign-up (spec §5 "Registration"). */
export async function registerMember(services: AuthServices, input: LocalRegistrationInput, origin: RequestOrigin) {
  const settings = await loadSettings(services);
  const checked = checkLocalRegistration(input, settings);
  if (!checked.ok) throw ruleError(checked.violation);
  const { loginId, password, email, ...common } = checked.value;
  return createMember(
    services,
    { loginId, loginKey: loginKey(loginId), password, email, emailUnique: true, provider: 'local', socialId: null, common },
    origin,
  );
}
