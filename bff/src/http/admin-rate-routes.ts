import type { Request, Response, Router } from 'express';
import { memberRateRequest } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { callContext } from './context.ts';
import { userIdRule } from './query.ts';

const memberNotFound = () => new HttpError(404, 'MEMBER_NOT_FOUND', messages.memberNotFound);
const userIdOf = (req: Request): string => {
  const userId = req.params.userId;
  if (typeof userId !== 'string' || !userIdRule.pattern.test(userId)) throw memberNotFound();
  return userId;
};

/**
 * The console's rates section of a member's page (issue 40): operators read a member's rates;
 * admins set and remove them — a rate lowers what a member pays, a money decision like a balance
 * adjustment. The order service owns the rates and checks both again (admin only, never the
 * operator's own account: SELF_ACTION), validates each value with its Korean message, and writes
 * the audit record. A rate is only set for a member auth knows.
 */
export function adminRateRoutes(router: Router, verifier: TokenVerifier, auth: ServiceClient, order: ServiceClient): void {
  const operator = access(verifier, 'operator');
  const admin = access(verifier, 'admin');

  router.get('/admin/members/:userId/rates', operator, async (req: Request, res: Response) => {
    relay(res, await order.call(callContext(req), 'GET', `/admin/rates/${userIdOf(req)}`));
  });

  router.put('/admin/members/:userId/rates', admin, async (req: Request, res: Response) => {
    const userId = userIdOf(req);
    const ctx = callContext(req);
    const member = await auth.call(ctx, 'GET', `/admin/members/${userId}`);
    if (member.status !== 200) return relay(res, member);
    const body: unknown = req.body ?? {};
    // Values pass as sent (order's rules answer each wrong one); a body that is not an object is one.
    relay(res, await order.call(ctx, 'PUT', `/admin/rates/${userId}`, { body: typeof body === 'object' && body !== null && !Array.isArray(body) ? memberRateRequest.parse(body) : {} }));
  });

  router.delete('/admin/members/:userId/rates/:scope', admin, async (req: Request, res: Response) => {
    const userId = userIdOf(req);
    const scope = String(req.params.scope);
    if (!/^(all|[1-9]\d{0,14})$/.test(scope)) throw new HttpError(404, 'RATE_NOT_FOUND', messages.rateNotFound);
    relay(res, await order.call(callContext(req), 'DELETE', `/admin/rates/${userId}/${scope}`));
  });
}
