import type { Request, Response, Router } from 'express';
import type { TokenVerifier } from '../security/token-verifier.ts';
import { relay } from '../upstream/relay.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { access } from './access.ts';
import { callContext } from './context.ts';
import { listQuery } from './query.ts';

/** The filters of the audit log, checked here so auth only sees well-formed values. */
const filters = [
  { name: 'actor', pattern: /^[^\s]{1,100}$/ },
  // The login id of the member a money action benefited (issue 39).
  { name: 'beneficiary', pattern: /^[^\s]{1,100}$/ },
  { name: 'action', pattern: /^[a-z]+(\.[a-z]+){2}$/ },
  { name: 'target', pattern: /^[A-Za-z0-9:_-]{1,100}$/ },
  { name: 'targetType', pattern: /^[a-z-]{1,20}$/ },
  { name: 'from', pattern: /^\d{4}-\d{2}-\d{2}$/ },
  { name: 'to', pattern: /^\d{4}-\d{2}-\d{2}$/ },
];

/**
 * The operators' audit log (issue 12): admins only. It oversees every operator, staff included,
 * and shows values (balances, settings, providers) staff may not change. Auth keeps the log and
 * answers with login ids (the operator; the member when a member is the target), so no second
 * look-up is needed here.
 */
export function adminAuditRoutes(router: Router, verifier: TokenVerifier, auth: ServiceClient): void {
  router.get('/admin/audit', access(verifier, 'admin'), async (req: Request, res: Response) => {
    relay(res, await auth.call(callContext(req), 'GET', '/admin/audit', { query: listQuery(req, filters) }));
  });
}
