import { type EventOf, type TopUpApproved, type TopUpExpired, type TopUpRejected, causedBy } from '@smm/contracts';
import { type Logger, handleOnce } from '@smm/platform';
import type { TopUpOutcome } from '../domain/topup-expiry.ts';
import { type HandlerDeps, consumerName } from './deps.ts';

const outcomes: Record<'TopUpApproved' | 'TopUpRejected' | 'TopUpExpired', TopUpOutcome> = {
  TopUpApproved: 'approved',
  TopUpRejected: 'rejected',
  TopUpExpired: 'expired',
};

/** The wallet settled the request: its expiry must not fire any more. */
export async function onTopUpClosed(
  deps: HandlerDeps,
  event: EventOf<typeof TopUpApproved> | EventOf<typeof TopUpRejected> | EventOf<typeof TopUpExpired>,
  log: Logger,
): Promise<void> {
  const { topUpId, userId } = event.data;
  const state = outcomes[event.type];
  let result: string = 'duplicate';
  await handleOnce(deps.connection, consumerName, event, async (session) => {
    result = await deps.expiries.close({ topUpId, userId, state }, causedBy(event), session);
  });
  log.info({ topUpId, state, result }, 'top-up expiry closed');
}
