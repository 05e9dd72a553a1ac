/** One row of GET /api/admin/deposits (bff/API.md "Bank deposits"). */
export type AdminDeposit = {
  id: string;
  source: 'bank' | 'manual';
  transactionId: string;
  depositorName: string;
  amount: number;
  amountDeci: number;
  depositedAt: string;
  receivedAt: string;
  status: 'matched' | 'unmatched' | 'ambiguous' | 'attached';
  topUpId: number | null;
  userId: string | null;
  loginId: string | null;
  candidates: number[];
};
