import { type EventOf, type TopUpExpiryDue, causedBy } from '@smm/contracts';
import { type Logger, handleOnce } from '@smm/platform';
import { type ExpireOutcome, expireTopUp } from '../use-cases/top-ups.ts';
import { type WalletDeps, consumerName } from '../use-cases/context.ts';

/** A request still pending at its expiry time fails (status 2) with TopUpExpired; a decided one is left alone. */
export async function onTopUpExpiryDue(deps: WalletDeps, event: EventOf<typeof TopUpExpiryDue>, log: Logger): Promise<void> {
  const result: { outcome: ExpireOutcome } = { outcome: 'not-pending' };
  const handled = await handleOnce(deps.store.connection, consumerName, event, async (session) => {
    result.outcome = await expireTopUp(deps, event.data.topUpId, causedBy(event), session);
  });
  const { outcome } = result;
  if (handled === 'applied' && outcome === 'expired') deps.relay.kick();
  log.info({ topUpId: event.data.topUpId, outcome: handled === 'duplicate' ? 'duplicate' : outcome }, 'top-up expiry handled');
}
