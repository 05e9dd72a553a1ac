import type { Request, Response, Router } from 'express';
import { type AdminDepositRowsBody, type AttachDepositRequest, attachDepositRequest, depositPage, manualDepositRequest } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import { checkDepositSignature } from '../domain/deposit-signature.ts';
import { messages } from '../messages.ts';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { readAnswer } from '../upstream/read-answer.ts';
import { relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { userIdOfLoginId, withLoginIds } from './admin-login-ids.ts';
import { callContext } from './context.ts';
import { listQuery } from './query.ts';

export type DepositWebhook = { secret: string | undefined; windowSeconds: number };

const depositStatusRule = { name: 'status', pattern: /^(open|matched|unmatched|ambiguous|attached)$/ };
const depositNotFound = () => new HttpError(404, 'DEPOSIT_NOT_FOUND', messages.depositNotFound);

/**
 * Bank deposits (issue 12): the signed notification endpoint for bank-transfer notification
 * services, and the operators' deposit queue (list, hand entry, attach to a request or a member).
 */
export function depositRoutes(router: Router, verifier: TokenVerifier, auth: ServiceClient, wallet: ServiceClient, webhook: DepositWebhook): void {
  router.post('/deposits/notify', async (req: Request, res: Response) => {
    if (webhook.secret === undefined) throw new HttpError(503, 'DEPOSITS_NOT_CONFIGURED', messages.depositsNotConfigured);
    const check = checkDepositSignature(
      webhook.secret,
      { timestamp: req.get('x-deposit-timestamp'), signature: req.get('x-deposit-signature') },
      req.rawBody,
      Math.floor(Date.now() / 1000),
      webhook.windowSeconds,
    );
    if (check !== 'ok') {
      req.log.warn({ check }, 'deposit notification refused');
      throw new HttpError(401, check === 'stale' ? 'TIMESTAMP_STALE' : 'SIGNATURE_INVALID', check === 'stale' ? messages.depositTimestampStale : messages.depositSignatureInvalid);
    }
    relay(res, await wallet.call(callContext(req), 'POST', '/deposits/bank', { body: req.body }));
  });

  const operator = access(verifier, 'operator');
  router.get('/admin/deposits', operator, async (req: Request, res: Response) => {
    const ctx = callContext(req);
    const answer = await wallet.call(ctx, 'GET', '/admin/deposits', { query: listQuery(req, [depositStatusRule]) });
    if (answer.status !== 200) return relay(res, answer);
    const page = readAnswer(ctx, answer, depositPage);
    const attached = page.items.filter((d): d is typeof d & { userId: string } => d.userId !== null);
    const named = new Map((await withLoginIds(auth, ctx, attached)).map((d) => [d.id, d.loginId]));
    res.json({ ...page, items: page.items.map((d) => ({ ...d, loginId: named.get(d.id) ?? null })) } satisfies AdminDepositRowsBody);
  });
  router.post('/admin/deposits', operator, async (req: Request, res: Response) => {
    // Read as wallet reads it (the contract's schema): wallet's rules answer with their messages.
    relay(res, await wallet.call(callContext(req), 'POST', '/admin/deposits', { body: manualDepositRequest.parse(req.body) }));
  });
  router.post('/admin/deposits/:id/attach', operator, async (req: Request, res: Response) => {
    const id = req.params.id;
    if (typeof id !== 'string' || !/^(bank|manual):[A-Za-z0-9._:-]{1,100}$/.test(id)) throw depositNotFound();
    const ctx = callContext(req);
    const { topUpId, loginId } = (req.body ?? {}) as { topUpId?: unknown; loginId?: unknown };
    let body: AttachDepositRequest;
    if (typeof loginId === 'string' && loginId.trim() !== '' && topUpId === undefined) {
      const userId = await userIdOfLoginId(auth, ctx, loginId.trim());
      if (userId === null) throw new HttpError(404, 'MEMBER_NOT_FOUND', messages.memberNotFound);
      body = { userId };
    } else if (loginId === undefined) {
      body = attachDepositRequest.parse({ topUpId });
    } else {
      throw new HttpError(400, 'DEPOSIT_TARGET_INVALID', messages.depositTargetInvalid);
    }
    relay(res, await wallet.call(ctx, 'POST', `/admin/deposits/${encodeURIComponent(id)}/attach`, { body }));
  });
}
