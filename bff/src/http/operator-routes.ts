import type { Request, Response, Router } from 'express';
import { operatorAccessRequest, operatorCreateRequest, twoFactorEnrolRequest, twoFactorRequest } from '@smm/contracts/http';
import { operatorAreas } from '@smm/contracts';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';
import { answerSession, isSession } from '../security/refresh-cookie.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { callContext, callerOf } from './context.ts';
import { userIdRule } from './query.ts';

const operatorId = (req: Request): string => {
  const userId = req.params.userId;
  if (typeof userId !== 'string' || !userIdRule.pattern.test(userId)) throw new HttpError(404, 'OPERATOR_NOT_FOUND', messages.operatorNotFound);
  return userId;
};

/**
 * Issue 41. The operators' second factor after the password (`POST /auth/login` answers an
 * operator `{ twoFactor, challenge }` instead of a session), and staff management for admins. A
 * change to an operator drops their cached session state, so a disabled operator's token is
 * refused on its very next request and new areas count at once.
 */
export function operatorRoutes(router: Router, verifier: TokenVerifier, auth: ServiceClient): void {
  const sessionFrom = (path: string, schema: { parse(body: unknown): Record<string, unknown> }) => async (req: Request, res: Response) => {
    const answer = await auth.call(callContext(req), 'POST', path, { body: schema.parse(req.body ?? {}) });
    if (answer.status === 200 && isSession(answer.body)) answerSession(req, res, 200, answer.body);
    else relay(res, answer);
  };
  router.post('/auth/login/two-factor', sessionFrom('/sessions/two-factor', twoFactorRequest));
  router.post('/auth/login/two-factor/enrolment', async (req: Request, res: Response) => {
    relay(res, await auth.call(callContext(req), 'POST', '/sessions/two-factor/enrolment', { body: twoFactorEnrolRequest.parse(req.body ?? {}) }));
  });
  // The session, with the recovery codes shown this once.
  router.post('/auth/login/two-factor/enrolment/confirm', sessionFrom('/sessions/two-factor/enrolment/confirm', twoFactorEnrolRequest));

  const operator = access(verifier, 'operator');
  const admin = access(verifier, 'admin');
  /** The console's own caller: role and the areas the menu shows (the server enforces them anyway). */
  router.get('/admin/me', operator, (req: Request, res: Response) => {
    const caller = callerOf(req);
    res.json({ userId: caller.userId, loginId: caller.loginId, role: caller.role, areas: caller.role === 'admin' ? [...operatorAreas] : (caller.areas ?? [...operatorAreas]) });
  });
  router.get('/admin/operators', admin, async (req: Request, res: Response) => {
    relay(res, await auth.call(callContext(req), 'GET', '/admin/operators'));
  });
  router.post('/admin/operators', admin, async (req: Request, res: Response) => {
    const answer = await auth.call(callContext(req), 'POST', '/admin/operators', { body: operatorCreateRequest.parse(req.body ?? {}) });
    const userId = (answer.body as { userId?: unknown } | null)?.userId;
    if (answer.status === 201 && typeof userId === 'string') await verifier.sessions.forget(userId);
    relay(res, answer);
  });
  const change = (method: 'PUT' | 'POST', suffix: string, body: (req: Request) => unknown) => async (req: Request, res: Response) => {
    const userId = operatorId(req);
    const answer = await auth.call(callContext(req), method, `/admin/operators/${userId}${suffix}`, { body: body(req) });
    if (answer.status === 200) await verifier.sessions.forget(userId);
    relay(res, answer);
  };
  router.put('/admin/operators/:userId', admin, change('PUT', '', (req) => operatorAccessRequest.parse(req.body ?? {})));
  router.post('/admin/operators/:userId/disable', admin, change('POST', '/disable', () => ({})));
  router.post('/admin/operators/:userId/enable', admin, change('POST', '/enable', () => ({})));
  router.post('/admin/operators/:userId/two-factor/reset', admin, change('POST', '/two-factor/reset', () => ({})));
}
