import { type EventOf, type TopUpRequested, causedBy } from '@smm/contracts';
import { type Logger, handleOnce } from '@smm/platform';
import { type HandlerDeps, consumerName } from './deps.ts';

/** A new bank-transfer request: its expiry becomes due at the wallet's `expiresAt`. */
export async function onTopUpRequested(deps: HandlerDeps, event: EventOf<typeof TopUpRequested>, log: Logger): Promise<void> {
  const { topUpId, userId, expiresAt } = event.data;
  const dueAt = new Date(expiresAt);
  let created = false;
  const outcome = await handleOnce(deps.connection, consumerName, event, async (session) => {
    created = await deps.expiries.create({ topUpId, userId, dueAt }, causedBy(event), session);
  });
  if (created && outcome === 'applied') {
    deps.wake(dueAt);
    log.info({ topUpId, dueAt }, 'top-up expiry scheduled');
  } else {
    log.info({ topUpId, outcome }, 'top-up already known; TopUpRequested ignored');
  }
}
