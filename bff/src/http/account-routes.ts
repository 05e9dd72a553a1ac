import { isOperatorRole, operatorAreas } from '@smm/contracts';
import { type AuthProfileBody, type BalanceBody, type ChangePasswordRequest, type MemberProfileBody, authProfile, balance as balanceBody } from '@smm/contracts/http';
import type { Request, Response, Router } from 'express';
import { HttpError, parseInput } from '@smm/platform';
import { messages } from '../messages.ts';
import type { SessionEnds } from '../live/session-ends.ts';
import type { ApiKeyResolver } from '../reseller/api-key-resolver.ts';
import { clearRefreshCookie } from '../security/refresh-cookie.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import { failed, isErrorBody, relay } from '../upstream/relay.ts';
import type { CallContext, ServiceAnswer, ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { callContext, callerOf } from './context.ts';
import { changePasswordBody } from './schemas.ts';


/**
 * Wallet opens the account when it consumes UserRegistered, a moment after sign-up; until then
 * the member has no points, which is exactly what a new account holds.
 */
function balanceOf(ctx: CallContext, answer: ServiceAnswer): Pick<BalanceBody, 'point' | 'pointDeci'> | 'failed' {
  if (answer.status === 404 && isErrorBody(answer.body) && answer.body.code === 'ACCOUNT_NOT_FOUND') return { point: 0, pointDeci: 0 };
  if (failed(answer)) return 'failed';
  return readAnswer(ctx, answer, balanceBody);
}

/** The signed-in member's own account (spec §3 Profile, §5 "Other" guest refusals). */
export function accountRoutes(router: Router, verifier: TokenVerifier, auth: ServiceClient, wallet: ServiceClient, apiKeys: ApiKeyResolver, sessionEnds?: SessionEnds): void {
  router.get('/auth/profile', access(verifier, 'signedIn'), async (req: Request, res: Response) => {
    const ctx = callContext(req);
    const caller = callerOf(req);
    const [profileAnswer, balanceAnswer] = await Promise.all([
      auth.call(ctx, 'GET', '/members/me'),
      wallet.call(ctx, 'GET', `/accounts/${encodeURIComponent(caller.userId)}`),
    ]);
    // A valid signature for a member that no longer exists is still a token that cannot be used.
    if (profileAnswer.status === 404) throw new HttpError(401, 'TOKEN_INVALID', messages.tokenInvalid);
    if (failed(profileAnswer)) return relay(res, profileAnswer);
    const profile: AuthProfileBody = readAnswer(ctx, profileAnswer, authProfile);
    const balance = balanceOf(ctx, balanceAnswer);
    if (balance === 'failed') return relay(res, balanceAnswer);
    res.json({
      id: profile.id,
      point: balance.point,
      pointDeci: balance.pointDeci,
      apiKey: profile.apiKey,
      referralCode: profile.referralCode,
      userId: profile.userId,
      role: profile.role,
      email: profile.email ?? null,
      // A warning the member is shown (issue 12); suspended and banned members never get here.
      restriction: profile.restriction ?? null,
      // The console's menu (issue 41); the BFF enforces the areas on every operator route anyway.
      ...(isOperatorRole(profile.role) && { areas: profile.role === 'admin' ? [...operatorAreas] : [...(callerOf(req).areas ?? operatorAreas)] }),
    } satisfies MemberProfileBody);
  });

  router.post('/auth/change-password', access(verifier, 'notGuest'), async (req: Request, res: Response) => {
    const input = parseInput(changePasswordBody, req.body ?? {});
    const answer = await auth.call(callContext(req), 'PUT', '/members/me/password', { body: input satisfies ChangePasswordRequest });
    // Every session ended, this one included (the member logs in again): the old tokens stop here now.
    if (answer.status === 204) {
      await verifier.sessions.forget(callerOf(req).userId);
      clearRefreshCookie(req, res);
      // The member's other open tabs are signed out now, with the reason (issue 40), not on their next click.
      await sessionEnds?.announce(callerOf(req).userId, { reason: 'password-changed' }, req.log);
    }
    relay(res, answer);
  });
  router.post('/auth/api-key', access(verifier, 'notGuest'), async (req: Request, res: Response) => {
    const ctx = callContext(req);
    const answer = await auth.call(ctx, 'POST', '/members/me/api-key');
    // The old key must stop working at once, also for resolutions the BFF keeps.
    if (answer.status >= 200 && answer.status < 300) await apiKeys.rotated(ctx, callerOf(req).userId);
    relay(res, answer);
  });
  router.post('/auth/referral-code', access(verifier, 'notGuest'), async (req: Request, res: Response) => {
    relay(res, await auth.call(callContext(req), 'POST', '/members/me/referral-code'));
  });
}
