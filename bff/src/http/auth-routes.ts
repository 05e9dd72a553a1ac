import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import type {
  KakaoLoginRequest,
  LoginRequest,
  NaverLoginRequest,
  PhoneVerificationRequest,
  RefreshTokenRequest,
  RegisterRequest,
  SocialRegisterRequest,
} from '@smm/contracts/http';
import { HttpError, parseInput } from '@smm/platform';
import { messages } from '../messages.ts';
import { answerSession, clearRefreshCookie, isSession, refreshCookieOf } from '../security/refresh-cookie.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { offeredRegisterWhere } from './register-where-guard.ts';
import { access } from './access.ts';
import { callContext, callerOf } from './context.ts';
import { kakaoLoginBody, loginBody, naverLoginBody, registerBody, sendPhoneBody, socialRegisterBody } from './schemas.ts';

/**
 * What each of auth's public calls takes (@smm/contracts/http): the BFF's own schema of a route
 * (public messages, spec §7 names) must produce that body.
 */
type AuthPosts = {
  '/sessions': LoginRequest;
  '/sessions/naver': NaverLoginRequest;
  '/sessions/kakao': KakaoLoginRequest;
  '/members': RegisterRequest;
  '/members/naver': SocialRegisterRequest;
  '/members/kakao': SocialRegisterRequest;
  '/phone-verifications': PhoneVerificationRequest;
};

/** A body-less client (no content-type) reads as an empty object so auth's field rules answer. */
const bodyOf = (req: Request): unknown => req.body ?? {};

/**
 * Spec §7 calls that need no token: log-in (plain, Naver, Kakao), sign-up and phone codes. Auth
 * answers them; its status codes and Korean messages pass through (§8: 400 format, 404 wrong id
 * or password / unknown social account with its continuation token, 409 duplicates, 429 limits).
 */
export function authRoutes(router: Router, auth: ServiceClient, verifier: TokenVerifier, catalog: ServiceClient): void {
  const offered = offeredRegisterWhere(catalog);
  const forward = <P extends keyof AuthPosts>(path: P, schema: z.ZodType<AuthPosts[P]>) => async (req: Request, res: Response) => {
    const input = parseInput(schema, bodyOf(req));
    relay(res, await auth.call(callContext(req), 'POST', path, { body: input }));
  };
  /** A log-in: the access token in the answer, the refresh token in the httpOnly cookie. */
  const logIn = <P extends keyof AuthPosts>(path: P, schema: z.ZodType<AuthPosts[P]>) => async (req: Request, res: Response) => {
    const input = parseInput(schema, bodyOf(req));
    const answer = await auth.call(callContext(req), 'POST', path, { body: input });
    if (answer.status === 200 && isSession(answer.body)) answerSession(req, res, 200, answer.body);
    else relay(res, answer);
  };
  router.post('/auth/login', logIn('/sessions', loginBody));
  router.post('/auth/login/naver', logIn('/sessions/naver', naverLoginBody));
  router.post('/auth/login/kakao', logIn('/sessions/kakao', kakaoLoginBody));
  /** The next access token, from the refresh cookie (spent and replaced). */
  router.post('/auth/refresh', async (req: Request, res: Response) => {
    const refreshToken = refreshCookieOf(req);
    if (refreshToken === null) throw new HttpError(401, 'TOKEN_INVALID', messages.tokenInvalid);
    const answer = await auth.call(callContext(req), 'POST', '/sessions/refresh', { body: { refreshToken } satisfies RefreshTokenRequest });
    if (answer.status === 200 && isSession(answer.body)) {
      answerSession(req, res, 200, answer.body);
      return;
    }
    if (answer.status === 401) {
      // A reused refresh token ended its whole session: its access tokens stop here at once.
      const ended = endedFor(answer.body);
      if (ended) await verifier.sessions.forget(ended);
      clearRefreshCookie(req, res);
      throw new HttpError(401, 'TOKEN_INVALID', messages.tokenInvalid);
    }
    relay(res, answer);
  });
  /** This device: its session ends — the refresh token is revoked, the cookie cleared, and its access tokens refused from now on. */
  router.post('/auth/logout', async (req: Request, res: Response) => {
    const refreshToken = refreshCookieOf(req);
    if (refreshToken !== null) {
      const answer = await auth.call(callContext(req), 'POST', '/sessions/revoke', { body: { refreshToken } satisfies RefreshTokenRequest });
      const userId = (answer.body as { userId?: unknown } | null)?.userId;
      if (answer.status === 200 && typeof userId === 'string') await verifier.sessions.forget(userId);
    }
    clearRefreshCookie(req, res);
    res.status(204).end();
  });
  /** Every device: auth raises the token version; this BFF stops accepting older tokens at once. */
  router.post('/auth/logout-everywhere', access(verifier, 'signedIn'), async (req: Request, res: Response) => {
    const answer = await auth.call(callContext(req), 'POST', '/members/me/sessions/end');
    await verifier.sessions.forget(callerOf(req).userId);
    if (answer.status === 200) {
      clearRefreshCookie(req, res);
      res.status(204).end();
      return;
    }
    relay(res, answer);
  });
  router.post('/auth/register', offered, forward('/members', registerBody));
  router.post('/auth/register/naver', offered, forward('/members/naver', socialRegisterBody));
  router.post('/auth/register/kakao', offered, forward('/members/kakao', socialRegisterBody));
  router.post('/auth/send-phone-number', forward('/phone-verifications', sendPhoneBody));
}

/** The member whose session auth ended for a reused refresh token (its 401 names them), else null. */
function endedFor(body: unknown): string | null {
  const b = body as { code?: unknown; details?: { userId?: unknown } } | null;
  return b?.code === 'REFRESH_TOKEN_REUSED' && typeof b.details?.userId === 'string' ? b.details.userId : null;
}
