/**
 * Spec §5 password length, for sign-up and password change alike: the screens check it before
 * sending and auth refuses anything else. Plain constants, so the web app imports this module.
 */
export const passwordLength = { min: 8, max: 20 } as const;

export const passwordLengthMessage = `비밀번호는 ${passwordLength.min}~${passwordLength.max}자로 입력해 주세요.`;

/** True when the password's length (in characters, not UTF-16 units) is within the rule. */
export function passwordLengthOk(password: string): boolean {
  const length = [...password].length;
  return length >= passwordLength.min && length <= passwordLength.max;
}
