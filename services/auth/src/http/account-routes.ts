import type { Express } from 'express';
import { type AuthProfileBody, type ResolvedApiKeyBody, type SessionStateBody, changePasswordRequest, resolveApiKeyRequest } from '@smm/contracts/http';
import { changePassword } from '../use-cases/change-password.ts';
import type { AuthServices } from '../use-cases/context.ts';
import { getProfile } from '../use-cases/get-profile.ts';
import { issueReferralCode } from '../use-cases/issue-referral-code.ts';
import { resolveApiKey } from '../use-cases/resolve-api-key.ts';
import { rotateApiKey } from '../use-cases/rotate-api-key.ts';
import { endAllSessions, sessionState } from '../use-cases/sessions.ts';
import { callerOf, originOf } from './request.ts';

/** The signed-in member's own account (the BFF's service credential names the member), and API-key lookup. */
export function accountRoutes(app: Express, services: AuthServices): void {
  app.get('/members/me', async (req, res) => {
    res.json((await getProfile(services, callerOf(req))) satisfies AuthProfileBody);
  });
  /** Also ends every session of the member. */
  app.put('/members/me/password', async (req, res) => {
    await changePassword(services, callerOf(req), changePasswordRequest.parse(req.body));
    res.status(204).end();
  });
  /** "Log out everywhere". */
  app.post('/members/me/sessions/end', async (req, res) => {
    res.json(await endAllSessions(services, callerOf(req)));
  });
  /** For the BFF: the token version and status a verified access token must still match. */
  app.get('/members/:userId/session-state', async (req, res) => {
    res.json((await sessionState(services, req.caller, req.params.userId)) satisfies SessionStateBody);
  });
  app.post('/members/me/api-key', async (req, res) => {
    res.status(201).json(await rotateApiKey(services, callerOf(req), originOf(req)));
  });
  app.post('/members/me/referral-code', async (req, res) => {
    res.status(201).json(await issueReferralCode(services, callerOf(req), originOf(req)));
  });
  // POST so the key never lands in an access log's URL.
  app.post('/api-keys/resolve', async (req, res) => {
    res.json((await resolveApiKey(services, resolveApiKeyRequest.parse(req.body))) satisfies ResolvedApiKeyBody);
  });
}
