import type { Express } from 'express';
import {
  type AuthSessionBody,
  kakaoLoginRequest,
  loginRequest,
  naverLoginRequest,
  phoneVerificationRequest,
  refreshTokenRequest,
  registerRequest,
  socialRegisterRequest,
} from '@smm/contracts/http';
import type { AuthServices } from '../use-cases/context.ts';
import { logIn } from '../use-cases/log-in.ts';
import { registerMember } from '../use-cases/register-member.ts';
import { registerSocial } from '../use-cases/register-social.ts';
import { sendPhoneCode } from '../use-cases/send-phone-code.ts';
import { refreshSession, revokeRefreshToken } from '../use-cases/sessions.ts';
import { type SocialProvider, logInWithKakao, logInWithNaver } from '../use-cases/social-login.ts';
import { originOf } from './request.ts';

/** Sign-up, phone verification and log-in: callers without a token. Bodies as the BFF sends them (@smm/contracts/http). */
export function authRoutes(app: Express, services: AuthServices): void {
  app.post('/members', async (req, res) => {
    res.status(201).json(await registerMember(services, registerRequest.parse(req.body), originOf(req)));
  });

  for (const provider of ['naver', 'kakao'] as const satisfies readonly SocialProvider[]) {
    app.post(`/members/${provider}`, async (req, res) => {
      res.status(201).json(await registerSocial(services, provider, socialRegisterRequest.parse(req.body), originOf(req)));
    });
  }

  app.post('/phone-verifications', async (req, res) => {
    res.status(201).json(await sendPhoneCode(services, phoneVerificationRequest.parse(req.body), originOf(req)));
  });

  app.post('/sessions/refresh', async (req, res) => {
    res.json((await refreshSession(services, refreshTokenRequest.parse(req.body))) satisfies AuthSessionBody);
  });
  app.post('/sessions/revoke', async (req, res) => {
    const ended = await revokeRefreshToken(services, refreshTokenRequest.parse(req.body));
    if (ended) res.json(ended);
    else res.status(204).end();
  });
  app.post('/sessions', async (req, res) => {
    // A session, or (issue 41) an operator's second-factor step.
    res.json(await logIn(services, loginRequest.parse(req.body), originOf(req)));
  });
  app.post('/sessions/naver', async (req, res) => {
    res.json(await logInWithNaver(services, naverLoginRequest.parse(req.body), originOf(req)));
  });
  app.post('/sessions/kakao', async (req, res) => {
    res.json(await logInWithKakao(services, kakaoLoginRequest.parse(req.body), originOf(req)));
  });
}
