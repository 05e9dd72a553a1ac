import { describe, expect, it } from 'vitest';
import { toAuthSettings } from './settings.ts';

describe('settings replica', () => {
  it('reads a missing flag as off and only "true" as on', () => {
    expect(toAuthSettings(new Map())).toMatchObject({ phoneVerification: false, referral: false, naverLogin: false, naverClientId: null });
    const settings = toAuthSettings(
      new Map([
        ['ENABLE_PHONE_NUMBER_VERIFICATION', 'TRUE'],
        ['ENABLE_REFERRAL', 'yes'],
        ['ENABLE_KAKAO_LOGIN', 'true'],
        ['NAVER_CLIENT_ID', ' abc '],
        ['NAVER_STATE', ''],
      ]),
    );
    expect(settings).toMatchObject({ phoneVerification: true, referral: false, kakaoLogin: true, naverClientId: 'abc', naverState: null });
  });
});
