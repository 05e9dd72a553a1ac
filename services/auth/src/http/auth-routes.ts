import type { Express } from 'express';
import type { AuthSessionBody } from '@smm/contracts/http';
import type { AuthServices } from '../use-cases/context.ts';
import { logIn } from '../use-cases/log-in.ts';
import { registerMember } from '../use-cases/register-member.ts';
import { registerSocial } from '../use-cases/register-social.ts';
import { sendPhoneCode } from '../use-cases/send-phone-code.ts';
import { refreshSession, revokeRefreshToken } from '../use-cases/sessions.ts';
import { type SocialProvider, logInWithKakao, logInWithNaver } from '../use-cases/social-login.ts';
import { bodyOf, originOf } from './request.ts';

/** Sign-up, phone verification and log-in: callers without a token. */
export function authRoutes(app: Express, services: AuthServices): void {
  app.post('/members', async (req, res) => {
    res.status(201).json(await registerMember(services, bodyOf(req), originOf(req)));
  });

  for (const provider of ['naver', 'kakao'] as const satisfies readonly SocialProvider[]) {
    app.post(`/members/${provider}`, async (req, res) => {
      res.status(201).json(await registerSocial(services, provider, bodyOf(req), originOf(req)));
    });
  }

  app.post('/phone-verifications', async (req, res) => {
    res.status(201).json(await sendPhoneCode(services, bodyOf(req), originOf(req)));
  });

  app.post('/sessions/refresh', async (req, res) => {
    res.json((await refreshSession(services, bodyOf(req))) satisfies AuthSessionBody);
  });
  app.post('/sessions/revoke', async (req, res) => {
    await revokeRefreshToken(services, bodyOf(req));
    res.status(204).end();
  });
  app.post('/sessions', async (req, res) => {
    res.json((await logIn(services, bodyOf(req), originOf(req))) satisfies AuthSessionBody);
  });
  app.post('/sessions/naver', async (req, res) => {
    res.json(await logInWithNaver(services, bodyOf(req), originOf(req)));
  });
  app.post('/sessions/kakao', async (req, res) => {
    res.json(await logInWithKakao(services, bodyOf(req), originOf(req)));
  });
}
