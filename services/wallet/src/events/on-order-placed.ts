import type { EventOf, OrderPlaced } from '@smm/contracts';
import type { Logger } from '@smm/platform';
import type { WalletDeps } from '../use-cases/context.ts';
import { payForOrder } from '../use-cases/pay-for-order.ts';

/** Step 2 of the order saga: pay for the order or refuse it, once per order. */
export async function onOrderPlaced(deps: WalletDeps, event: EventOf<typeof OrderPlaced>, log: Logger): Promise<void> {
  const outcome = await payForOrder(deps, event);
  const fields = { userId: event.data.userId, kind: event.data.kind, orderId: event.data.orderId, amountDeci: event.data.chargeDeci, outcome };
  // Debits are the hot path: one debug line each; anything unusual at info.
  if (outcome === 'debited') log.debug(fields, 'order paid');
  else log.info(fields, outcome === 'rejected' ? 'order payment refused' : 'order already decided; nothing emitted');
}
