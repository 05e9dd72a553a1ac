import type { Express } from 'express';
import { type MemberLoginBody, type MemberLoginsBody, loginIdsRequest, restrictionRequest, roleRequest } from '@smm/contracts/http';
import type { AuthServices } from '../use-cases/context.ts';
import { changeRestriction } from '../use-cases/change-restriction.ts';
import { memberDetail, searchMembers } from '../use-cases/member-search.ts';
import { callingOperator, loginIdsOf, memberByLoginId, setRole } from '../use-cases/operators.ts';
import { callerOf, originOf } from './request.ts';

/** What the operator console needs from auth: login ids for lists, lookup by login id, roles, restrictions. */
export function adminRoutes(app: Express, services: AuthServices): void {
  // POST: a page of ids does not fit a URL comfortably.
  app.post('/admin/members/login-ids', async (req, res) => {
    await callingOperator(services, callerOf(req), 'operator');
    res.json((await loginIdsOf(services, loginIdsRequest.parse(req.body))) satisfies MemberLoginsBody);
  });
  app.get('/admin/members/by-login-id/:loginId', async (req, res) => {
    await callingOperator(services, callerOf(req), 'operator');
    res.json((await memberByLoginId(services, req.params.loginId)) satisfies MemberLoginBody);
  });
  app.get('/admin/members', async (req, res) => {
    await callingOperator(services, callerOf(req), 'operator');
    res.json(await searchMembers(services, req.query as Record<string, unknown>));
  });
  app.get('/admin/members/:userId', async (req, res) => {
    await callingOperator(services, callerOf(req), 'operator');
    res.json(await memberDetail(services, req.params.userId));
  });
  app.put('/admin/members/:userId/role', async (req, res) => {
    const operator = await callingOperator(services, callerOf(req), 'admin');
    res.json(await setRole(services, operator, req.params.userId, roleRequest.parse(req.body), originOf(req)));
  });
  // Staff too: the issue keeps only balance adjustments, settings and providers from staff.
  app.put('/admin/members/:userId/restriction', async (req, res) => {
    const operator = await callingOperator(services, callerOf(req), 'operator');
    res.json(await changeRestriction(services, operator, req.params.userId, restrictionRequest.parse(req.body), originOf(req)));
  });
}
