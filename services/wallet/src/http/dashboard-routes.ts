import type { Express } from 'express';
import type { MoneySummaryBody } from '@smm/contracts/http';
import { badRequest } from '@smm/platform';
import { messages } from '../domain/messages.ts';
import { moneySummary } from '../use-cases/dashboard.ts';
import type { WalletDeps } from '../use-cases/context.ts';
import { operatorOnly } from './actor.ts';

/** GET /admin/dashboard?days=7 — the console's money figures (operators: admin or staff). */
export function dashboardRoutes(deps: WalletDeps) {
  return (app: Express) => {
    app.get('/admin/dashboard', operatorOnly, async (req, res) => {
      const raw = req.query.days ?? '7';
      if (typeof raw !== 'string' || !/^\d{1,2}$/.test(raw) || Number(raw) < 1 || Number(raw) > 31) throw badRequest(messages.daysInvalid, undefined, 'VALIDATION_FAILED');
      res.json((await moneySummary(deps, Number(raw))) satisfies MoneySummaryBody);
    });
  };
}
