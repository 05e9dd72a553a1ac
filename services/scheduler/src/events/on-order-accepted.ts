import { type EventOf, type OrderAccepted, causedBy } from '@smm/contracts';
import { type Logger, PermanentEventError, handleOnce } from '@smm/platform';
import { isScheduleProblem, startSchedule } from '../domain/auto-schedule.ts';
import { type HandlerDeps, consumerName } from './deps.ts';

/** A paid auto order starts its schedule: run 1 is due at acceptance, then one every interval. */
export async function onOrderAccepted(deps: HandlerDeps, event: EventOf<typeof OrderAccepted>, log: Logger): Promise<void> {
  const { orderId, kind, userId, runs, interval } = event.data;
  if (kind !== 'auto') return; // one-off orders have nothing to schedule
  // A subscription's runs are its profile's new posts, recorded as they come: nothing to schedule.
  if (event.data.subscription) return void log.info({ autoOrderId: orderId }, 'subscription accepted; nothing to schedule');
  const schedule = startSchedule({ autoOrderId: orderId, userId, runs, intervalMinutes: interval, acceptedAt: new Date(event.occurredAt), now: new Date() });
  if (isScheduleProblem(schedule)) throw new PermanentEventError(`${schedule.code}: ${schedule.message}`);
  let created = false;
  const outcome = await handleOnce(deps.connection, consumerName, event, async (session) => {
    created = await deps.schedules.create(schedule, causedBy(event), session);
  });
  if (created && outcome === 'applied') {
    deps.wake(schedule.dueAt ?? new Date());
    log.info({ autoOrderId: orderId, runs, intervalMinutes: interval, firstDueAt: schedule.dueAt }, 'auto-order schedule started');
  } else {
    log.info({ autoOrderId: orderId, outcome }, 'auto-order schedule already known; OrderAccepted ignored');
  }
}
