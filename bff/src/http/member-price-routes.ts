import type { Request, Response, Router } from 'express';
import { serviceList } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import { messages } from '../messages.ts';
import type { MemberPrices } from '../reseller/member-prices.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import { relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { callContext } from './context.ts';

/**
 * Spec §7 `GET /service/services`, the catalogue the order screen and the price list read: public,
 * and for a signed-in member priced with their rates (issue 40), so both screens show — and the
 * order screen sends back as the shown price — what the member is charged. A guest (no token) and
 * a member whose account is restricted get the catalogue's prices; a token that is no longer valid
 * gets 401 like any member route, so the app renews it and asks again rather than showing the
 * wrong prices.
 */
export function memberCatalogueRoutes(router: Router, verifier: TokenVerifier, catalog: ServiceClient, prices: MemberPrices): void {
  router.get('/service/services', async (req: Request, res: Response) => {
    const state = await verifier.stateOf(req.get('authorization'), callContext(req));
    if (state.kind === 'invalid') throw new HttpError(401, 'TOKEN_INVALID', messages.tokenInvalid);
    // Prices differ per member: a shared cache must not hand one member's list to another.
    res.setHeader('vary', 'authorization');
    const answer = await catalog.call(callContext(req), 'GET', '/services');
    if (state.kind !== 'signedIn' || answer.status !== 200) return relay(res, answer);
    req.member = state.caller;
    const ctx = callContext(req);
    res.json(await prices.price(ctx, readAnswer(ctx, answer, serviceList)));
  });
}
