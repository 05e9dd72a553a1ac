import { type AutoOrderRunDue, type EventOf, causedBy } from '@smm/contracts';
import { type Logger, handleOnce, isDuplicateKeyError } from '@smm/platform';
import { placeRun } from '../domain/auto-order.ts';
import { runOrderOf } from '../store/models.ts';
import { type OrderDeps, withOutbox } from '../use-cases/context.ts';
import { autoOrderCompleted, autoOrderRunPlaced } from './order-events.ts';

export const runsConsumer = 'order-runs';

/**
 * Saga step 5: a due run of an active auto order becomes a paid child order (status 0, the per-run
 * amount and share of the charge), the auto order counts it, and AutoOrderRunPlaced (and after the
 * last run AutoOrderCompleted) go out — one transaction. Cancel writes the same auto-order document,
 * so a run and a cancel racing each other serialize (the loser's transaction is retried and then
 * sees the winner's result). Anything else (cancelled, already placed, out of order) only logs.
 */
export async function onAutoOrderRunDue(deps: OrderDeps, event: EventOf<typeof AutoOrderRunDue>, log: Logger): Promise<void> {
  const { autoOrderId, run } = event.data;
  // The id comes first, outside the transaction (gaps are fine): a sequence bump inside would make
  // every concurrent run conflict on the counter.
  const childId = await deps.store.nextOrderId();
  let placed: { completed: boolean } | null = null;
  try {
    await handleOnce(deps.store.connection, runsConsumer, event, async (session) => {
      placed = null;
      await withOutbox(deps, session, async (s, emit) => {
        const auto = await deps.store.repository.autoOrder(autoOrderId, s);
        if (!auto) {
          log.warn({ autoOrderId, run }, 'run due for an unknown auto order ignored');
          return;
        }
        // A subscription's runs are posts, recorded as they come: a due run (stale or forged) places nothing.
        if (auto.subscription) {
          log.warn({ autoOrderId, run }, 'run due for a subscription ignored');
          return;
        }
        if (auto.userId !== event.data.userId) {
          log.warn({ autoOrderId, run }, 'run due names another member; ignored');
          return;
        }
        const verdict = placeRun({ id: auto._id, status: auto.status, runs: auto.runs, completed: auto.completed, chargeDeci: auto.chargeDeci, perRunDeci: auto.perRunDeci, refundedDeci: auto.refundedDeci }, run);
        if (!verdict.ok) {
          log.info({ autoOrderId, run, reason: verdict.reason }, 'auto order run not placed');
          return;
        }
        const now = new Date();
        const child = runOrderOf(auto, childId, run, now);
        await deps.store.repository.update('auto', autoOrderId, { status: auto.status, completed: auto.completed }, { completed: verdict.completedAfter, status: verdict.statusAfter }, s);
        await deps.store.repository.insert([{ kind: 'order', doc: child }], s);
        emit(autoOrderRunPlaced({ autoOrderId, userId: auto.userId, run, runs: auto.runs, childOrderId: childId, serviceId: child.serviceId, link: child.link, amount: child.amount }, causedBy(event)));
        if (verdict.finished) emit(autoOrderCompleted({ autoOrderId, userId: auto.userId, runs: auto.runs }, causedBy(event)));
        placed = { completed: verdict.finished };
      });
    });
  } catch (error) {
    // The unique {autoOrderId, run} index: another delivery (another event id) placed this run first.
    if (isDuplicateKeyError(error, 'orders')) {
      log.info({ autoOrderId, run }, 'auto order run already placed');
      return;
    }
    throw error;
  }
  const done = placed as { completed: boolean } | null;
  if (done) log.info({ autoOrderId, run, childOrderId: childId, completed: done.completed }, 'auto order run placed');
}
