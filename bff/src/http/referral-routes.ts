import type { Request, Response, Router } from 'express';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { callContext, callerOf } from './context.ts';
import { listQuery } from './query.ts';

/**
 * The account page's referral section: the member's referred members (login ids masked by wallet),
 * net earnings, the rate, and the history of credits and reversals (`page`, `pageSize`). The rate
 * itself is an ordinary setting (`REFERRAL_RATE_PERCENT`) operators change with PUT /admin/settings.
 */
export function referralRoutes(router: Router, verifier: TokenVerifier, wallet: ServiceClient): void {
  router.get('/auth/referrals', access(verifier, 'notGuest'), async (req: Request, res: Response) => {
    const userId = callerOf(req).userId;
    relay(res, await wallet.call(callContext(req), 'GET', `/referrals/${encodeURIComponent(userId)}`, { query: listQuery(req) }));
  });
}
