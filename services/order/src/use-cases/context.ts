import type { ClientSession } from 'mongoose';
import type { Logger } from 'pino';
import { type EventEnvelope, Topics } from '@smm/contracts';
import { appendToOutbox, inTransaction } from '@smm/platform';
import type { Store } from '../store/store.ts';
import type { PaymentWaiter } from './payment-waiter.ts';
import type { PlacementBatcher } from './placement-batcher.ts';

/**
 * What every use case and handler needs. Events committed through `inTransaction` reach the relay at
 * commit; `relay.kick()` is only for records written some other way.
 */
export type OrderDeps = {
  store: Store;
  logger: Logger;
  relay: { kick(): void };
  waiter: PaymentWaiter;
  placements: PlacementBatcher;
  /** The subscription expiry timer: asked to look again when a subscription is placed or ended. */
  expiry: { rearm(): void };
};

export type Emit = (...events: EventEnvelope[]) => void;

/**
 * Runs a change and the events it causes in one transaction (retried as a whole on WriteConflict);
 * the relay gets the events at commit.
 */
export async function commit<T>(deps: OrderDeps, work: (session: ClientSession, emit: Emit) => Promise<T>): Promise<T> {
  return inTransaction(deps.store.connection, async (session) => (await withOutbox(deps, session, work)).value);
}

/** Inside an existing transaction: the work's events go to the outbox in the same transaction. */
export async function withOutbox<T>(deps: Pick<OrderDeps, 'store'>, session: ClientSession, work: (session: ClientSession, emit: Emit) => Promise<T>): Promise<{ value: T; emitted: number }> {
  const events: EventEnvelope[] = [];
  const value = await work(session, (...more) => events.push(...more));
  await appendToOutbox(deps.store.connection, session, Topics.order, events);
  return { value, emitted: events.length };
}
