import { randomInt } from 'node:crypto';

/** No 0/O or 1/I/L: codes are read aloud and typed from screenshots. */
const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const REFERRAL_CODE_LENGTH = 8;

export function newReferralCode(): string {
  let code = '';
  for (let i = 0; i < REFERRAL_CODE_LENGTH; i++) code += alphabet[randomInt(0, alphabet.length)];
  return code;
}

/** Whether a referral code may be issued (spec §6: setting on and none yet). */
export function referralIssueRefusal(settingOn: boolean, existing: string | null | undefined): 'disabled' | 'exists' | null {
  if (!settingOn) return 'disabled';
  if (existing) return 'exists';
  return null;
}
