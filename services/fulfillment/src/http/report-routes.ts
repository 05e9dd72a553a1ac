import type { Express, Request, Response } from 'express';
import { HttpError, instantRange } from '@smm/platform';
import type { FulfillmentDeps } from '../use-cases/context.ts';
import { type CostGroupBy, attention, costGroups } from '../use-cases/reports.ts';
import { actorOf, adminOnly, operatorOnly } from './actor.ts';

const groupings = new Set<CostGroupBy>(['day', 'product', 'provider', 'member', 'provider-product']);
const words = {
  rangeInvalid: '기간을 올바르게 입력해 주세요. (ISO 8601, 시작 ≤ 끝)',
  groupInvalid: '집계 기준은 day, product, provider, member, provider-product 중 하나입니다.',
};

/**
 * The back office's reports over forwards (issue 41): the provider cost of the profit report
 * (admin) and what needs a person on the dashboard (operators; providers for admins only).
 */
export function reportRoutes(app: Express, deps: FulfillmentDeps): void {
  app.get('/admin/reports/cost', adminOnly, async (req: Request, res: Response) => {
    const by = req.query.by as CostGroupBy;
    if (!groupings.has(by)) throw new HttpError(400, 'VALIDATION_FAILED', words.groupInvalid);
    res.json({ by, groups: await costGroups(deps, by, instantRange(req.query, words.rangeInvalid)) });
  });
  app.get('/admin/reports/attention', operatorOnly, async (req: Request, res: Response) => {
    res.json(await attention(deps, actorOf(req).admin));
  });
}
