import type { EventOf, RefundRequested } from '@smm/contracts';
import type { Logger } from '@smm/platform';
import type { WalletDeps } from '../use-cases/context.ts';
import { creditRefund } from '../use-cases/credit-refund.ts';

/** The compensation of a payment: points go back once per refund id. */
export async function onRefundRequested(deps: WalletDeps, event: EventOf<typeof RefundRequested>, log: Logger): Promise<void> {
  const outcome = await creditRefund(deps, event);
  log.info({ userId: event.data.userId, refundId: event.data.refundId, amountDeci: event.data.amountDeci, outcome }, outcome === 'credited' ? 'refund credited' : 'refund already credited');
}
