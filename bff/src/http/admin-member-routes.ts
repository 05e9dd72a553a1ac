import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import { type AdminMemberPageViewBody, adjustmentList, adjustmentRequest, adminMemberDetail, adminTopUpPage, balance, ledgerPage, orderPage, restrictionRequest, roleRequest } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { relay } from '../upstream/relay.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import { type CallContext, type ServiceAnswer, type ServiceClient, ServiceUnavailable } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { callContext } from './context.ts';
import { userIdRule } from './query.ts';

const memberNotFound = () => new HttpError(404, 'MEMBER_NOT_FOUND', messages.memberNotFound);
const userIdOf = (req: Request): string => {
  const userId = req.params.userId;
  if (typeof userId !== 'string' || !userIdRule.pattern.test(userId)) throw memberNotFound();
  return userId;
};
const pageQuery = (pageSize: number, extra: Record<string, string> = {}) => new URLSearchParams({ page: '1', pageSize: String(pageSize), ...extra });
/**
 * A part of the member page that could not be read is shown as missing, not as a failed page: no
 * answer, an error, or a body off its contract (logged by readAnswer).
 */
function partOf<S extends z.ZodType>(ctx: CallContext, answer: ServiceAnswer | null, schema: S): z.output<S> | null {
  if (answer === null || answer.status !== 200) return null;
  try {
    return readAnswer(ctx, answer, schema);
  } catch (error) {
    if (error instanceof HttpError) return null;
    throw error;
  }
}

/**
 * Operators' member screens (issue 12): search by login id, e-mail or phone; one member's page
 * (profile, balance, ledger, adjustments, top-ups, orders); operators set and lift restrictions;
 * admins make members staff and adjust balances with a reason.
 */
export function adminMemberRoutes(router: Router, verifier: TokenVerifier, auth: ServiceClient, wallet: ServiceClient, order: ServiceClient): void {
  const operator = access(verifier, 'operator');
  const admin = access(verifier, 'admin');

  router.get('/admin/members', operator, async (req: Request, res: Response) => {
    const query = new URLSearchParams();
    for (const name of ['q', 'page', 'pageSize']) {
      const value = req.query[name];
      if (typeof value === 'string' && value !== '') query.set(name, value);
    }
    relay(res, await auth.call(callContext(req), 'GET', '/admin/members', { query }));
  });

  router.get('/admin/members/:userId', operator, async (req: Request, res: Response) => {
    const userId = userIdOf(req);
    const ctx = callContext(req);
    const profile = await auth.call(ctx, 'GET', `/admin/members/${userId}`);
    if (profile.status !== 200) return relay(res, profile);
    const optional = (call: Promise<ServiceAnswer>) => call.catch((error: unknown) => (error instanceof ServiceUnavailable ? null : Promise.reject(error)));
    const [account, ledger, adjustments, topUps, orders] = await Promise.all([
      optional(wallet.call(ctx, 'GET', `/accounts/${userId}`)),
      optional(wallet.call(ctx, 'GET', `/admin/accounts/${userId}/ledger`, { query: pageQuery(20) })),
      optional(wallet.call(ctx, 'GET', `/admin/accounts/${userId}/adjustments`)),
      optional(wallet.call(ctx, 'GET', '/admin/top-ups', { query: pageQuery(20, { userId }) })),
      optional(order.call(ctx, 'GET', '/admin/orders', { query: pageQuery(20, { userId }) })),
    ]);
    res.json({
      member: readAnswer(ctx, profile, adminMemberDetail),
      // No account yet: wallet opens it on the registration event, a moment after sign-up.
      balance: partOf(ctx, account, balance) ?? { point: 0, pointDeci: 0 },
      ledger: partOf(ctx, ledger, ledgerPage),
      adjustments: partOf(ctx, adjustments, adjustmentList),
      topUps: partOf(ctx, topUps, adminTopUpPage),
      orders: partOf(ctx, orders, orderPage),
    } satisfies AdminMemberPageViewBody);
  });

  router.post('/admin/members/:userId/adjustments', admin, async (req: Request, res: Response) => {
    const userId = userIdOf(req);
    // Read as wallet reads it (the contract's schema): wallet's rules answer with their messages.
    relay(res, await wallet.call(callContext(req), 'POST', `/admin/accounts/${userId}/adjustments`, { body: adjustmentRequest.parse(req.body) }));
  });

  // Operators (staff too). The member's cached session state is dropped, so the change counts on
  // its very next web or API-key request.
  router.put('/admin/members/:userId/restriction', operator, async (req: Request, res: Response) => {
    const userId = userIdOf(req);
    const answer = await auth.call(callContext(req), 'PUT', `/admin/members/${userId}/restriction`, { body: restrictionRequest.parse(req.body) });
    if (answer.status === 200) await verifier.sessions.forget(userId);
    relay(res, answer);
  });

  router.put('/admin/members/:userId/role', admin, async (req: Request, res: Response) => {
    const userId = userIdOf(req);
    const answer = await auth.call(callContext(req), 'PUT', `/admin/members/${userId}/role`, { body: roleRequest.parse(req.body) });
    // The member's tokens name the old role: the next request sees the new one (issue 41).
    if (answer.status === 200) await verifier.sessions.forget(userId);
    relay(res, answer);
  });
}
