import { settingEnabled, settingKeys } from '@smm/contracts';

/** The settings keys auth keeps a replica of (catalog owns them). */
export const replicatedSettingKeys = [
  settingKeys.enablePhoneVerification,
  settingKeys.enableReferral,
  settingKeys.enableNaverLogin,
  settingKeys.enableKakaoLogin,
  settingKeys.naverClientId,
  settingKeys.naverState,
  settingKeys.naverRedirectUrl,
  settingKeys.enableOperatorTwoFactor,
] as const;

export type AuthSettings = {
  phoneVerification: boolean;
  referral: boolean;
  naverLogin: boolean;
  kakaoLogin: boolean;
  naverClientId: string | null;
  naverState: string | null;
  naverRedirectUrl: string | null;
  /** Issue 41: operators must sign in with a second factor. */
  operatorTwoFactor: boolean;
};

const text = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value.trim());

/** Reads the replica; a missing setting means off (flags) or unset (texts). */
export function toAuthSettings(values: ReadonlyMap<string, string>): AuthSettings {
  return {
    phoneVerification: settingEnabled(values.get(settingKeys.enablePhoneVerification)),
    referral: settingEnabled(values.get(settingKeys.enableReferral)),
    naverLogin: settingEnabled(values.get(settingKeys.enableNaverLogin)),
    kakaoLogin: settingEnabled(values.get(settingKeys.enableKakaoLogin)),
    naverClientId: text(values.get(settingKeys.naverClientId)),
    naverState: text(values.get(settingKeys.naverState)),
    naverRedirectUrl: text(values.get(settingKeys.naverRedirectUrl)),
    operatorTwoFactor: settingEnabled(values.get(settingKeys.enableOperatorTwoFactor)),
  };
}
