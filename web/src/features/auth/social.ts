import type { BrowserSessionBody } from '@smm/contracts/http';
import { ApiError, post } from '../../lib/api.ts';
import { authText as t } from './messages.ts';
import { type TwoFactorChallenge, isTwoFactorChallenge } from './TwoFactorStep.tsx';

/** The message the /auth/naver pop-up posts to its opener (spec §2, §7). */
export const naverAuthSource = 'naver-auth';
export type NaverAuthMessage = { source: typeof naverAuthSource; payload: string };

export function isNaverAuthMessage(data: unknown): data is NaverAuthMessage {
  return typeof data === 'object' && data !== null && (data as { source?: unknown }).source === naverAuthSource && typeof (data as { payload?: unknown }).payload === 'string';
}

export type SocialResult =
  | { kind: 'signedIn'; accessToken: string }
  /** An operator's second factor comes first (issue 41). */
  | { kind: 'twoFactor'; step: TwoFactorChallenge }
  | { kind: 'register'; provider: 'naver' | 'kakao'; accessToken: string }
  | { kind: 'failed'; message: string };

async function socialLogin(provider: 'naver' | 'kakao', body: Record<string, string>): Promise<SocialResult> {
  try {
    const answer = await post<BrowserSessionBody | TwoFactorChallenge>(`/auth/login/${provider}`, body);
    if (isTwoFactorChallenge(answer)) return { kind: 'twoFactor', step: answer };
    return { kind: 'signedIn', accessToken: answer.accessToken };
  } catch (error) {
    // Spec §8: 404 = not registered yet; its body carries the token that continues sign-up.
    if (error instanceof ApiError && error.status === 404 && typeof error.body.accessToken === 'string')
      return { kind: 'register', provider, accessToken: error.body.accessToken };
    const fallback = provider === 'naver' ? t.naverFailed : t.kakaoFailed;
    return { kind: 'failed', message: error instanceof ApiError && error.message ? error.message : fallback };
  }
}

/** Opens the Naver authorize page in a pop-up and waits for /auth/naver to post the code back. */
export function naverLogin(settings: { clientId: string; state: string; redirectUrl: string }): Promise<SocialResult> {
  const redirect = settings.redirectUrl || `${window.location.origin}/auth/naver`;
  const url =
    'https://nid.naver.com/oauth2.0/authorize?response_type=code' +
    `&client_id=${encodeURIComponent(settings.clientId)}` +
    `&redirect_uri=${encodeURIComponent(redirect)}` +
    `&state=${encodeURIComponent(settings.state || 'smm')}`;
  const popup = window.open(url, 'naver-login', 'width=480,height=720');
  if (!popup) return Promise.resolve({ kind: 'failed', message: t.popupBlocked });
  return new Promise((resolve) => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isNaverAuthMessage(event.data)) return;
      window.removeEventListener('message', onMessage);
      window.clearInterval(watch);
      void socialLogin('naver', { code: event.data.payload }).then(resolve);
    };
    // A pop-up closed by the member without finishing ends the attempt quietly.
    const watch = window.setInterval(() => {
      if (popup.closed) {
        window.clearInterval(watch);
        window.removeEventListener('message', onMessage);
        window.setTimeout(() => resolve({ kind: 'failed', message: '' }), 300);
      }
    }, 500);
    window.addEventListener('message', onMessage);
  });
}

type KakaoSdk = {
  isInitialized(): boolean;
  init(key: string): void;
  Auth: { login(options: { success(auth: { access_token: string }): void; fail(error: unknown): void }): void };
};

function loadKakaoSdk(): Promise<KakaoSdk> {
  const existing = (window as unknown as { Kakao?: KakaoSdk }).Kakao;
  if (existing) return Promise.resolve(existing);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = 'https://developers.kakao.com/sdk/js/kakao.min.js';
    script.async = true;
    script.onload = () => {
      const sdk = (window as unknown as { Kakao?: KakaoSdk }).Kakao;
      if (sdk) resolve(sdk);
      else reject(new Error('Kakao SDK missing'));
    };
    script.onerror = () => reject(new Error('Kakao SDK failed to load'));
    document.head.appendChild(script);
  });
}

/** Kakao login through the provider's script; its access token is exchanged at the BFF. */
export async function kakaoLogin(appKey: string): Promise<SocialResult> {
  let token: string;
  try {
    const sdk = await loadKakaoSdk();
    if (!sdk.isInitialized()) sdk.init(appKey);
    token = await new Promise<string>((resolve, reject) => sdk.Auth.login({ success: (auth) => resolve(auth.access_token), fail: reject }));
  } catch {
    return { kind: 'failed', message: t.kakaoAuthFailed };
  }
  return socialLogin('kakao', { accessToken: token });
}
