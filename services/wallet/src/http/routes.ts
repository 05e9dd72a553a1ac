import type { Express } from 'express';
import { deciToWon } from '@smm/contracts';
import { notFound } from '@smm/platform';
import type { PointAccounts } from '../store/point-account.model.ts';

export const messages = {
  accountNotFound: '포인트 계정을 찾을 수 없습니다.',
} as const;

export function walletRoutes(accounts: PointAccounts) {
  return (app: Express) => {
    /** A member's balance: `point` in won (up to one decimal) for screens, `pointDeci` exact. */
    app.get('/accounts/:userId', async (req, res) => {
      const account = await accounts.find(req.params.userId);
      if (!account) throw notFound(messages.accountNotFound, 'ACCOUNT_NOT_FOUND');
      res.json({ userId: account.userId, point: deciToWon(account.balanceDeci), pointDeci: account.balanceDeci });
    });
  };
}
