import { randomInt } from 'node:crypto';

/** No 0/O, 1/I/L: recovery codes are copied by hand from paper. */
const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const recoveryCodeCount = 10;

/** One code: 12 characters (about 59 bits) shown as `XXXX-XXXX-XXXX`. */
export function newRecoveryCode(): string {
  let raw = '';
  for (let i = 0; i < 12; i += 1) raw += alphabet[randomInt(alphabet.length)];
  return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8)}`;
}

export const newRecoveryCodes = (): string[] => Array.from({ length: recoveryCodeCount }, newRecoveryCode);

/** What is compared: upper case without separators, so `abcd efgh jkmn` matches `ABCD-EFGH-JKMN`. */
export const normaliseRecoveryCode = (code: string): string => code.replace(/[\s-]/g, '').toUpperCase();

export const looksLikeRecoveryCode = (code: string): boolean => /^[A-Z0-9]{12}$/.test(normaliseRecoveryCode(code));
