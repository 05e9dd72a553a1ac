import { z } from 'zod';
import { isoDateText, itemList, page, requestBody, requestText, restrictionBody } from './common.ts';

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
  status: z.enum(['active', 'suspended', 'banned', 'deleted', 'disabled']),
  version: z.number().int().nullable(),
  /** The role auth holds now, and a staff member's console areas (issue 41); absent from older auths. */
  role: role.optional(),
  areas: z.array(z.string()).optional(),
  restriction: restrictionBody.nullable(),
  /** Sessions (the access token's `sid`) ended within an access token's lifetime: their tokens are refused. */
  endedSessions: z.array(z.string()).default([]),
});
export type SessionStateBody = z.infer<typeof sessionState>;

/** A new session (login, sign-up, refresh): the BFF moves `refreshToken` into its cookie. */
export const authSession = z.looseObject({ accessToken: z.string(), expiresIn: z.number().int(), refreshToken: z.string(), refreshExpiresIn: z.number().int() });
export type AuthSessionBody = z.infer<typeof authSession>;

/** What the browser gets of a new session: the BFF keeps the refresh token in its cookie. */
export const browserSession = authSession.omit({ refreshToken: true, refreshExpiresIn: true });
export type BrowserSessionBody = z.infer<typeof browserSession>;

const restrictionLevel = z.enum(['warning', 'suspended', 'banned']);

/** One row of `GET /admin/members` (member-search.ts): `restrictionLevel` is the level in force, for the list's badge. */
export const adminMemberRow = z.looseObject({
  userId: z.string(),
  loginId: z.string(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  role,
  provider: z.string(),
  createdAt: isoDateText,
  restrictionLevel: restrictionLevel.nullable(),
});
export type AdminMemberRowBody = z.infer<typeof adminMemberRow>;
export const adminMemberList = page(adminMemberRow);
export type AdminMemberListBody = z.infer<typeof adminMemberList>;

/** A change of a member's restriction (null level: lifted), newest first on the member page. */
export const restrictionRecord = z.looseObject({
  id: z.string(),
  level: restrictionLevel.nullable(),
  previousLevel: restrictionLevel.nullable(),
  reason: z.string(),
  until: isoDateText.nullable(),
  changedByLoginId: z.string(),
  at: isoDateText,
});
export type RestrictionRecordBody = z.infer<typeof restrictionRecord>;

/** `GET /admin/members/:userId` (memberDetail): never a secret, the API key only by its prefix. */
export const adminMemberDetail = adminMemberRow.omit({ restrictionLevel: true }).extend({
  registerWhere: z.string().nullable(),
  referralCode: z.string().nullable(),
  referredBy: z.string().nullable(),
  apiKeyPrefix: z.string().nullable(),
  apiKeyIssuedAt: isoDateText.nullable(),
  restriction: restrictionBody.nullable(),
  restrictionHistory: z.array(restrictionRecord),
});
export type AdminMemberDetailBody = z.infer<typeof adminMemberDetail>;

/** One entry of the audit log (`GET /admin/audit`, search-audit.ts): login ids null for members auth no longer knows. */
export const auditRow = z.looseObject({
  id: z.string(),
  at: isoDateText,
  actor: z.looseObject({ userId: z.string(), loginId: z.string().nullable(), role: z.string() }),
  service: z.string(),
  action: z.string(),
  target: z.looseObject({ type: z.string(), id: z.string(), loginId: z.string().nullable() }),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  /** The member a money action benefits (issue 39); null on other actions and older records. */
  beneficiary: z.looseObject({ userId: z.string(), loginId: z.string().nullable() }).nullable().optional(),
  /** Login ids of members named inside the change (a `userId` field), so the log shows no UUID (issue 41). */
  memberLogins: z.record(z.string(), z.string()).optional(),
});
export type AuditRowBody = z.infer<typeof auditRow>;
export const auditPage = page(auditRow);
export type AuditPageBody = z.infer<typeof auditPage>;

/*
 * Requests (see common.ts): what the BFF sends and auth reads. Auth's rules check every field
 * (required, spaces, lengths, formats) with their Korean messages; text of another type reads as
 * absent, which those rules already refused the same way.
 */

/** `POST /sessions`. */
export const loginRequest = requestBody({ id: requestText(), password: requestText() });
export type LoginRequest = z.input<typeof loginRequest>;
/** `POST /sessions/naver`: the authorization code. */
export const naverLoginRequest = requestBody({ code: requestText() });
export type NaverLoginRequest = z.input<typeof naverLoginRequest>;
/** `POST /sessions/kakao`: Kakao's access token. */
export const kakaoLoginRequest = requestBody({ accessToken: requestText() });
export type KakaoLoginRequest = z.input<typeof kakaoLoginRequest>;
/** `POST /sessions/refresh` and `/sessions/revoke`: the refresh token from the BFF's cookie. */
export const refreshTokenRequest = requestBody({ refreshToken: requestText() });
export type RefreshTokenRequest = z.input<typeof refreshTokenRequest>;

const signUpFields = { registerWhere: requestText(), phoneNumber: requestText(), sendCode: requestText(), referral: requestText() };
/** `POST /members`: a local sign-up. */
export const registerRequest = requestBody({ id: requestText(), password: requestText(), email: requestText(), ...signUpFields });
export type RegisterRequest = z.input<typeof registerRequest>;
/** `POST /members/naver`, `/members/kakao`: a social sign-up with the provider's token. */
export const socialRegisterRequest = requestBody({ accessToken: requestText(), ...signUpFields });
export type SocialRegisterRequest = z.input<typeof socialRegisterRequest>;
/** `POST /phone-verifications`. */
export const phoneVerificationRequest = requestBody({ phoneNumber: requestText() });
export type PhoneVerificationRequest = z.input<typeof phoneVerificationRequest>;
/** `PUT /members/me/password`. */
export const changePasswordRequest = requestBody({ currentPassword: requestText(), newPassword: requestText() });
export type ChangePasswordRequest = z.input<typeof changePasswordRequest>;
/** `POST /api-keys/resolve`: whose key it is. */
export const resolveApiKeyRequest = requestBody({ apiKey: requestText() });
export type ResolveApiKeyRequest = z.input<typeof resolveApiKeyRequest>;
/** `POST /admin/members/login-ids`: at most 500 member ids (auth checks count and format). */
export const loginIdsRequest = requestBody({ userIds: z.array(z.string()).optional().catch(undefined) });
export type LoginIdsRequest = z.input<typeof loginIdsRequest>;
/** `PUT /admin/members/:userId/role`: member or staff. */
export const roleRequest = requestBody({ role: requestText() });
export type RoleRequest = z.input<typeof roleRequest>;
/** `PUT /admin/members/:userId/restriction`: level (or none), the mandatory reason, and `until` for a suspension. */
export const restrictionRequest = requestBody({ level: requestText(), reason: requestText(), until: z.string().nullish().catch(undefined) });
export type RestrictionRequest = z.input<typeof restrictionRequest>;

/*
 * Operators and their second factor (issue 41): staff management and TOTP sign-in.
 */

/** `POST /sessions` of an operator who must pass a second factor: no session yet, a challenge instead. */
export const twoFactorChallenge = z.looseObject({ twoFactor: z.enum(['verify', 'enrol']), challenge: z.string(), expiresIn: z.number().int() });
export type TwoFactorChallengeBody = z.infer<typeof twoFactorChallenge>;
/** `POST /sessions/two-factor/enrolment`: the new secret, shown once to be put in an authenticator app. */
export const twoFactorSecret = z.looseObject({ secret: z.string(), otpauthUri: z.string() });
export type TwoFactorSecretBody = z.infer<typeof twoFactorSecret>;

/** One operator in `GET /admin/operators`. */
export const operatorRow = z.looseObject({
  userId: z.string(),
  loginId: z.string(),
  role: z.enum(['staff', 'admin']),
  areas: z.array(z.string()),
  disabled: z.boolean(),
  twoFactor: z.boolean(),
  createdAt: isoDateText,
});
export type OperatorRowBody = z.infer<typeof operatorRow>;
export const operatorList = z.looseObject({ items: z.array(operatorRow), twoFactorRequired: z.boolean() });
export type OperatorListBody = z.infer<typeof operatorList>;

/** `POST /sessions/two-factor`: the challenge and a code from the app, or a recovery code. */
export const twoFactorRequest = requestBody({ challenge: requestText(), code: requestText(), recoveryCode: requestText() });
export type TwoFactorRequest = z.input<typeof twoFactorRequest>;
/** `POST /sessions/two-factor/enrolment` (and `/confirm` with the first code). */
export const twoFactorEnrolRequest = requestBody({ challenge: requestText(), code: requestText() });
export type TwoFactorEnrolRequest = z.input<typeof twoFactorEnrolRequest>;
/** `POST /admin/operators`: a new operator account, or an existing member made one (`existing`). */
export const operatorCreateRequest = requestBody({
  loginId: requestText(),
  role: requestText(),
  areas: z.array(z.string()).optional().catch(undefined),
  email: requestText(),
});
export type OperatorCreateRequest = z.input<typeof operatorCreateRequest>;
/** `PUT /admin/operators/:userId`: role (staff, admin or member: no longer an operator) and a staff member's areas. */
export const operatorAccessRequest = requestBody({ role: requestText(), areas: z.array(z.string()).optional().catch(undefined) });
export type OperatorAccessRequest = z.input<typeof operatorAccessRequest>;
