import { z } from 'zod';
import { isoDateText, itemList, restrictionBody } from './common.ts';

/** Auth service answers (services/auth/src/use-cases and http/*.ts). */

const role = z.enum(['member', 'staff', 'admin']);

/** `GET /members/me` (get-profile.ts); the BFF adds the balance. `apiKey` is masked. */
export const authProfile = z.looseObject({
  userId: z.string(),
  id: z.string(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  role,
  provider: z.string(),
  registerWhere: z.string().nullable(),
  apiKey: z.string().nullable(),
  apiKeyPrefix: z.string().nullable(),
  apiKeyIssuedAt: isoDateText.nullable(),
  referralCode: z.string().nullable(),
  createdAt: isoDateText,
  restriction: restrictionBody.nullable(),
});
export type AuthProfileBody = z.infer<typeof authProfile>;

/** One member named by both ids: `GET /admin/members/by-login-id/:loginId`. */
export const memberLogin = z.looseObject({ userId: z.string(), loginId: z.string() });
export type MemberLoginBody = z.infer<typeof memberLogin>;

/** `POST /admin/members/login-ids`: the members auth knows among those asked. */
export const memberLogins = itemList(memberLogin);
export type MemberLoginsBody = z.infer<typeof memberLogins>;

/** `POST /api-keys/resolve`: whose key it is. */
export const resolvedApiKey = z.looseObject({ userId: z.string(), loginId: z.string(), role });
export type ResolvedApiKeyBody = z.infer<typeof resolvedApiKey>;

/** `GET /members/:userId/session-state`: what a verified access token must still match. */
export const sessionState = z.looseObject({
  userId: z.string(),
  status: z.enum(['active', 'suspended', 'banned', 'deleted']),
  version: z.number().int().nullable(),
  restriction: restrictionBody.nullable(),
});
export type SessionStateBody = z.infer<typeof sessionState>;

/** A new session (login, sign-up, refresh): the BFF moves `refreshToken` into its cookie. */
export const authSession = z.looseObject({ accessToken: z.string(), expiresIn: z.number().int(), refreshToken: z.string(), refreshExpiresIn: z.number().int() });
export type AuthSessionBody = z.infer<typeof authSession>;
