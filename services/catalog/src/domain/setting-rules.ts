import { type CountSettingKey, type SettingKey, allSettingKeys, countSettings, flagSettingKeys, parseCountSetting, parseReferralRate, settingKeys } from '@smm/contracts';
import { isHexColour } from './colour.ts';
import { messages } from './messages.ts';
import { type Problem, problem } from './problem.ts';

const known: ReadonlySet<string> = new Set(allSettingKeys);
const colourKeys: ReadonlySet<string> = new Set([settingKeys.mainColor, settingKeys.noticeBoldColor]);
const urlKeys: ReadonlySet<string> = new Set([settingKeys.chatChannelLink, settingKeys.naverRedirectUrl]);
export const maxSettingLength = 2000;

export function isSettingKey(key: string): key is SettingKey {
  return known.has(key);
}

/**
 * Checks one setting as an operator sends it and returns the string to store. Flags accept a
 * boolean or "true"/"false" in any case and are stored as "true"/"false", because every reader
 * (web app, auth replica) compares against "true" (settingEnabled). Empty text clears a text
 * setting (the web app hides, for example, the chat button when its link is empty).
 */
export function normalizeSetting(key: string, value: unknown): { ok: true; key: SettingKey; value: string } | { ok: false; problem: Problem } {
  if (!isSettingKey(key)) return { ok: false, problem: problem('UNKNOWN_SETTING', `${messages.unknownSetting} (${key})`) };
  if (flagSettingKeys.has(key)) {
    const text = typeof value === 'boolean' ? String(value) : typeof value === 'string' ? value.trim().toLowerCase() : '';
    if (text !== 'true' && text !== 'false') return { ok: false, problem: problem('INVALID_SETTING_VALUE', `${messages.settingFlagInvalid} (${key})`) };
    return { ok: true, key, value: text };
  }
  if (key === settingKeys.referralRatePercent) {
    // Never empty: wallet pays from this number, so it is always a readable whole percent.
    const rate = typeof value === 'number' ? parseReferralRate(String(value)) : typeof value === 'string' ? parseReferralRate(value) : null;
    if (rate === null) return { ok: false, problem: problem('INVALID_SETTING_VALUE', `${messages.settingReferralRateInvalid} (${key})`) };
    return { ok: true, key, value: String(rate) };
  }
  if (Object.hasOwn(countSettings, key)) {
    // Never empty either: the wallet enforces these numbers (issue 39).
    const count = parseCountSetting(key as CountSettingKey, typeof value === 'number' || typeof value === 'string' ? String(value) : null);
    if (count === null) {
      const { min, max } = countSettings[key as CountSettingKey];
      return { ok: false, problem: problem('INVALID_SETTING_VALUE', `${messages.settingCountInvalid}: ${min}~${max} (${key})`) };
    }
    return { ok: true, key, value: String(count) };
  }
  if (typeof value !== 'string' || value.length > maxSettingLength) {
    return { ok: false, problem: problem('INVALID_SETTING_VALUE', `${messages.settingValueInvalid} (${key})`) };
  }
  const text = value.trim();
  if (text === '') return { ok: true, key, value: '' };
  if (colourKeys.has(key) && !isHexColour(text)) return { ok: false, problem: problem('INVALID_SETTING_VALUE', `${messages.settingColorInvalid} (${key})`) };
  if (urlKeys.has(key) && !/^https?:\/\/\S+$/.test(text)) return { ok: false, problem: problem('INVALID_SETTING_VALUE', `${messages.settingUrlInvalid} (${key})`) };
  if (key === settingKeys.bankingBankCode && !/^\d{3}$/.test(text)) {
    return { ok: false, problem: problem('INVALID_SETTING_VALUE', `${messages.settingBankCodeInvalid} (${key})`) };
  }
  return { ok: true, key, value: text };
}

/** Settings in the order of spec §3, so answers are stable. */
export function settingRank(key: string): number {
  const index = allSettingKeys.indexOf(key as SettingKey);
  return index === -1 ? allSettingKeys.length : index;
}
