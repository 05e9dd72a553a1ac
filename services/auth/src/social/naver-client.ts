import { z } from 'zod';
import type { SocialProfile } from '../security/tokens.ts';
import { ProviderRejected, ProviderUnavailable, fetchProviderJson } from './provider-errors.ts';

const tokenAnswer = z.union([
  z.object({ access_token: z.string().min(1) }),
  z.object({ error: z.string(), error_description: z.string().optional() }),
]);

const profileAnswer = z.object({
  resultcode: z.string(),
  response: z
    .object({ id: z.string().min(1), email: z.string().optional(), nickname: z.string().optional() })
    .optional(),
});

export type NaverCredentials = { clientId: string; clientSecret: string; state: string };

/** Naver Login: authorization code → access token (nid) → profile (openapi). */
export class NaverClient {
  constructor(
    private readonly authUrl: string,
    private readonly apiUrl: string,
  ) {}

  async profileForCode(code: string, credentials: NaverCredentials): Promise<SocialProfile> {
    const tokenUrl = new URL('/oauth2.0/token', this.authUrl);
    tokenUrl.search = new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      code,
      state: credentials.state,
    }).toString();
    const token = tokenAnswer.safeParse(await fetchProviderJson(tokenUrl));
    if (!token.success) throw new ProviderUnavailable('naver token answer not understood');
    // Naver answers a refused code with 200 and an error field.
    if ('error' in token.data) throw new ProviderRejected(`naver refused the code: ${token.data.error}`);

    const profile = profileAnswer.safeParse(
      await fetchProviderJson(new URL('/v1/nid/me', this.apiUrl), { authorization: `Bearer ${token.data.access_token}` }),
    );
    if (!profile.success) throw new ProviderUnavailable('naver profile answer not understood');
    if (profile.data.resultcode !== '00' || !profile.data.response) throw new ProviderRejected(`naver profile refused: ${profile.data.resultcode}`);
    const { id, email, nickname } = profile.data.response;
    return { provider: 'naver', providerUserId: id, email: email ?? null, nickname: nickname ?? null };
  }
}
