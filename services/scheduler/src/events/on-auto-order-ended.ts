import { type AutoOrderCanceled, type AutoOrderCompleted, type EventOf, causedBy } from '@smm/contracts';
import { type Logger, handleOnce } from '@smm/platform';
import { type HandlerDeps, consumerName } from './deps.ts';

/** Completed or cancelled: the schedule ends and no further run fires. */
export async function onAutoOrderEnded(
  deps: HandlerDeps,
  event: EventOf<typeof AutoOrderCompleted> | EventOf<typeof AutoOrderCanceled>,
  log: Logger,
): Promise<void> {
  const { autoOrderId, userId, runs } = event.data;
  const state = event.type === 'AutoOrderCompleted' ? 'completed' : 'canceled';
  let result: string = 'duplicate';
  await handleOnce(deps.connection, consumerName, event, async (session) => {
    result = await deps.schedules.finish({ autoOrderId, userId, runs, state }, causedBy(event), session);
  });
  log.info({ autoOrderId, state, result }, 'auto-order schedule ended');
}
