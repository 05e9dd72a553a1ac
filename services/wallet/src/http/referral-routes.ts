import type { ReferralSummaryBody } from '@smm/contracts/http';
import type { Express } from 'express';
import { deciToWon } from '@smm/contracts';
import { forbidden } from '@smm/platform';
import { messages } from '../domain/messages.ts';
import { maskLoginId } from '../domain/referral.ts';
import type { WalletDeps } from '../use-cases/context.ts';
import { referralRate } from '../use-cases/referral-earnings.ts';
import { paged } from '../use-cases/views.ts';
import type { ReferralEarningDoc } from '../store/referral.model.ts';
import { callerId, isAdmin } from './actor.ts';
import { pageOf } from './paging.ts';

/** The referred members shown on the account page (newest first); the count is exact. */
const membersShown = 100;

const earningView = (row: ReferralEarningDoc & { referredLoginId: string }) => ({
  createdAt: row.createdAt.toISOString(),
  kind: row.kind,
  member: maskLoginId(row.referredLoginId),
  amountDeci: row.amountDeci,
  point: deciToWon(row.amountDeci),
  sourceDeci: row.sourceDeci,
  ratePercent: row.ratePercent,
  shortfallDeci: row.shortfallDeci,
});

/**
 * `GET /referrals/:userId`: a referrer's members (login ids masked), net earnings, and the history
 * of credits and reversals (paged: `page`, `pageSize`). The member's own, or anyone's for operators.
 */
export function referralRoutes(deps: WalletDeps) {
  const { referrals } = deps.store;
  return (app: Express) => {
    app.get('/referrals/:userId', async (req, res) => {
      const userId = req.params.userId;
      if (userId !== callerId(req) && !isAdmin(req)) throw forbidden(messages.notYours, 'FORBIDDEN');
      const { page, pageSize, skip } = pageOf(req);
      const [members, memberCount, totals, rows, ratePercent] = await Promise.all([
        referrals.members(userId, membersShown),
        referrals.countMembers(userId),
        referrals.totals(userId),
        referrals.history(userId, skip, pageSize + 1),
        referralRate(deps),
      ]);
      const loginIds = new Map((await referrals.loginIds(rows.map((r) => r.referredId))).map((r) => [r._id, r.loginId]));
      const earningsDeci = totals.earnedDeci - totals.reversedDeci;
      res.json({
        ratePercent,
        memberCount,
        members: members.map((m) => ({ loginId: maskLoginId(m.loginId), registeredAt: m.registeredAt.toISOString() })),
        earningsDeci,
        earnings: deciToWon(earningsDeci),
        history: paged(rows, page, pageSize, (row) => earningView({ ...row, referredLoginId: loginIds.get(row.referredId) ?? '' })),
      } satisfies ReferralSummaryBody);
    });
  };
}
