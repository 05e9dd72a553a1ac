import type { Express, Request, Response } from 'express';
import { isOperatorRole } from '@smm/contracts';
import type { MemberRateListBody } from '@smm/contracts/http';
import { badRequest, forbidden, notFound, roleGate } from '@smm/platform';
import { readScope } from '../domain/member-rate-rules.ts';
import { messages } from '../domain/messages.ts';
import { rateMessages } from '../domain/rate-messages.ts';
import type { OrderDeps } from '../use-cases/context.ts';
import { type RateChangeResult, listRates, removeRate, setRate } from '../use-cases/member-rates.ts';
import { actorOf, originOf } from './actor.ts';

/** Member ids as auth issues them (the service credential's `sub`). */
const memberId = (value: unknown): string => {
  if (typeof value !== 'string' || !/^[A-Za-z0-9-]{1,64}$/.test(value)) throw notFound(rateMessages.notFound, 'MEMBER_NOT_FOUND');
  return value;
};

function answer(res: Response, result: RateChangeResult): void {
  if (result.ok) return void res.json(result.list satisfies MemberRateListBody);
  if (result.kind === 'forbidden') throw forbidden(result.problem.message, result.problem.code);
  if (result.kind === 'not-found') throw notFound(result.problem.message, result.problem.code);
  throw badRequest(result.problem.message, undefined, result.problem.code);
}

/**
 * Rates per member (issue 40). `GET /rates`: the caller's own rates (operators may name any
 * member with `userId`), which the BFF lays over the catalogue's prices. Under `/admin/rates`:
 * operators read a member's rates; only admins set and remove them, never their own.
 */
export function rateRoutes(app: Express, deps: OrderDeps): void {
  app.get('/rates', async (req: Request, res: Response) => {
    const actor = actorOf(req);
    const asked = typeof req.query.userId === 'string' && req.query.userId !== '' ? memberId(req.query.userId) : actor.userId;
    if (asked !== actor.userId && !isOperatorRole(req.caller.role)) throw forbidden(rateMessages.otherMember, 'FORBIDDEN');
    res.json((await listRates(deps, asked)) satisfies MemberRateListBody);
  });

  const operator = roleGate('operator', messages.adminOnly);
  app.get('/admin/rates/:userId', operator, async (req: Request, res: Response) => {
    res.json((await listRates(deps, memberId(req.params.userId))) satisfies MemberRateListBody);
  });

  app.put('/admin/rates/:userId', operator, async (req: Request, res: Response) => {
    const userId = memberId(req.params.userId);
    const body: unknown = req.body ?? {};
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(rateMessages.kindRequired, undefined, 'RATE_KIND_REQUIRED');
    answer(res, await setRate(deps, originOf(req), req.caller, userId, body));
  });

  app.delete('/admin/rates/:userId/:scope', operator, async (req: Request, res: Response) => {
    const userId = memberId(req.params.userId);
    const scope = readScope(String(req.params.scope));
    if (scope === undefined) throw notFound(rateMessages.scopeInvalid, 'RATE_NOT_FOUND');
    answer(res, await removeRate(deps, originOf(req), req.caller, userId, scope));
  });
}
