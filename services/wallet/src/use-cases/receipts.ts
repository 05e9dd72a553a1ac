import type { EventOrigin } from '@smm/contracts';
import { type OperatorAction, inTransaction, recordOperatorAction } from '@smm/platform';
import type { TopUp } from '../domain/top-up.ts';
import type { WalletDeps } from './context.ts';

/**
 * An operator marks the receipt of an approved top-up issued (once); the mark and its audit record
 * commit together. null when the top-up is missing or its receipt is not issuable now.
 */
export async function markReceiptIssued(deps: WalletDeps, id: number, actor: OperatorAction['caller'], origin: EventOrigin): Promise<TopUp | null> {
  const { store } = deps;
  const marked = await inTransaction(store.connection, async (session) => {
    const topUp = await store.topUps.markReceiptIssued(id, new Date(), session);
    if (!topUp) return null;
    const act = { caller: actor, action: 'wallet.receipt.issue', target: { type: 'topup', id: String(id) }, beneficiaryId: topUp.userId } as const;
    await recordOperatorAction(store.connection, session, { ...act, before: { receiptIssuedAt: null }, after: { receiptIssuedAt: topUp.receiptIssuedAt ?? null } }, origin);
    return topUp;
  });
  if (marked) deps.relay.kick();
  return marked;
}
