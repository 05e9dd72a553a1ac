import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import { parseInput } from '@smm/platform';
import { relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { callContext } from './context.ts';
import { kakaoLoginBody, loginBody, naverLoginBody, registerBody, sendPhoneBody, socialRegisterBody } from './schemas.ts';

/** A body-less client (no content-type) reads as an empty object so auth's field rules answer. */
const bodyOf = (req: Request): unknown => req.body ?? {};

/**
 * Spec §7 calls that need no token: log-in (plain, Naver, Kakao), sign-up and phone codes. Auth
 * answers them; its status codes and Korean messages pass through (§8: 400 format, 404 wrong id
 * or password / unknown social account with its continuation token, 409 duplicates, 429 limits).
 */
export function authRoutes(router: Router, auth: ServiceClient): void {
  const forward = (path: string, schema: z.ZodType) => async (req: Request, res: Response) => {
    const input = parseInput(schema, bodyOf(req));
    relay(res, await auth.call(callContext(req), 'POST', path, { body: input }));
  };
  router.post('/auth/login', forward('/sessions', loginBody));
  router.post('/auth/login/naver', forward('/sessions/naver', naverLoginBody));
  router.post('/auth/login/kakao', forward('/sessions/kakao', kakaoLoginBody));
  router.post('/auth/register', forward('/members', registerBody));
  router.post('/auth/register/naver', forward('/members/naver', socialRegisterBody));
  router.post('/auth/register/kakao', forward('/members/kakao', socialRegisterBody));
  router.post('/auth/send-phone-number', forward('/phone-verifications', sendPhoneBody));
}
