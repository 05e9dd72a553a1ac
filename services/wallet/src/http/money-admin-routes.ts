import type { Express } from 'express';
import { deciToWon } from '@smm/contracts';
import type { WalletDeps } from '../use-cases/context.ts';
import { paged } from '../use-cases/views.ts';
import { pageOf, queryText } from './paging.ts';

/**
 * Operators' lists of money the wallet would not move (mounted behind the operator gate):
 * - `GET /admin/refused-refunds` (`open=1`: not credited since, `userId`): refunds its ledger did
 *   not prove (no debit of that member, or more than debited minus refunded), with the reason.
 * - `GET /admin/referral-shortfalls`: referrers who still owe what reversals could not take; it is
 *   deducted from their next shares.
 */
export function moneyAdminRoutes(deps: WalletDeps) {
  const { store } = deps;
  return (app: Express) => {
    app.get('/admin/refused-refunds', async (req, res) => {
      const { page, pageSize, skip } = pageOf(req);
      const userId = queryText(req, 'userId');
      const rows = await store.refundRefusals.page({ open: queryText(req, 'open') === '1', ...(userId === undefined ? {} : { userId }) }, skip, pageSize + 1);
      res.json(
        paged(rows, page, pageSize, (r) => ({
          refundId: r._id,
          userId: r.userId,
          orderId: r.orderId,
          amountDeci: r.amountDeci,
          point: deciToWon(r.amountDeci),
          code: r.code,
          reason: r.reason,
          eventId: r.eventId,
          firstSeenAt: r.firstSeenAt.toISOString(),
          lastSeenAt: r.lastSeenAt.toISOString(),
          timesSeen: r.timesSeen,
          creditedAt: r.creditedAt ? r.creditedAt.toISOString() : null,
        })),
      );
    });

    app.get('/admin/referral-shortfalls', async (req, res) => {
      const { page, pageSize, skip } = pageOf(req);
      const rows = await store.referrals.owing(skip, pageSize + 1);
      res.json(
        paged(rows, page, pageSize, (r) => ({
          referrerId: r._id,
          owedDeci: r.owedDeci,
          owed: deciToWon(r.owedDeci),
          carriedDeci: r.carriedDeci,
          settledDeci: r.settledDeci,
          updatedAt: r.updatedAt.toISOString(),
        })),
      );
    });
  };
}
