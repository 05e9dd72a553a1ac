import type { Express } from 'express';
import { callerOf } from '../http/request.ts';
import type { AuthServices } from '../use-cases/context.ts';
import { callingOperator } from '../use-cases/operators.ts';
import { searchAudit } from './search-audit.ts';

/**
 * The audit log is for admins only: it oversees operators, staff included, and shows values of
 * settings, balances and providers that staff may not touch.
 */
export function auditRoutes(app: Express, services: AuthServices): void {
  app.get('/admin/audit', async (req, res) => {
    await callingOperator(services, callerOf(req), 'admin');
    res.json(await searchAudit(services, req.query as Record<string, unknown>));
  });
}
