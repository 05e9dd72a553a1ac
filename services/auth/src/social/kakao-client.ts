import { z } from 'zod';
import type { SocialProfile } from '../security/tokens.ts';
import { ProviderUnavailable, fetchProviderJson } from './provider-errors.ts';

const profileAnswer = z.object({
  id: z.union([z.number().int(), z.string().min(1)]),
  kakao_account: z
    .object({ email: z.string().optional(), profile: z.object({ nickname: z.string().optional() }).optional() })
    .optional(),
});

/** Kakao Login: the browser's access token → the user's profile (kapi /v2/user/me). */
export class KakaoClient {
  constructor(private readonly apiUrl: string) {}

  async profileForToken(accessToken: string): Promise<SocialProfile> {
    const answer = profileAnswer.safeParse(
      await fetchProviderJson(new URL('/v2/user/me', this.apiUrl), { authorization: `Bearer ${accessToken}` }),
    );
    if (!answer.success) throw new ProviderUnavailable('kakao profile answer not understood');
    const account = answer.data.kakao_account;
    return {
      provider: 'kakao',
      providerUserId: String(answer.data.id),
      email: account?.email ?? null,
      nickname: account?.profile?.nickname ?? null,
    };
  }
}
