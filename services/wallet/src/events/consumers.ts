import { OrderPlaced, RefundRequested, SettingChanged, TopUpExpiryDue, Topics, UserRegistered } from '@smm/contracts';
import { type EventProducer, type Kafka, type Logger, type RunningConsumer, runEventConsumer } from '@smm/platform';
import type { WalletDeps } from '../use-cases/context.ts';
import { onOrderPlaced } from './on-order-placed.ts';
import { onRefundRequested } from './on-refund-requested.ts';
import { onSettingChanged } from './on-setting-changed.ts';
import { onTopUpExpiryDue } from './on-top-up-expiry-due.ts';
import { onUserRegistered } from './on-user-registered.ts';

/** Events of the topics the wallet reads that concern it not at all; skipped without a dead letter. */
export const ignoredEvents = [
  'ApiKeyRotated',
  'ReferralCodeIssued',
  'ServiceUpserted',
  'ServiceRemoved',
  'OrderAccepted',
  'OrderRejected',
  'OrderStatusChanged',
  'AutoOrderCreated',
  'AutoOrderRunPlaced',
  'AutoOrderCompleted',
  'AutoOrderCanceled',
  'AutoOrderRunDue',
] as const;

/**
 * One consumer group (`wallet`) over every topic it reads. Each handler is idempotent on its own
 * (handleOnce, plus the ledger's unique references for money), so redelivery and replay are safe.
 */
export function startWalletConsumer(deps: WalletDeps, kafka: Kafka, producer: EventProducer, logger: Logger, groupId = 'wallet'): Promise<RunningConsumer> {
  return runEventConsumer({
    kafka,
    groupId,
    topics: [Topics.auth, Topics.catalog, Topics.order, Topics.scheduler],
    definitions: [UserRegistered, SettingChanged, OrderPlaced, RefundRequested, TopUpExpiryDue] as const,
    ignore: ignoredEvents,
    producer,
    logger,
    handle: async (event, { log }) => {
      switch (event.type) {
        case 'UserRegistered':
          return onUserRegistered(deps, event, log);
        case 'SettingChanged':
          return onSettingChanged(deps, event, log);
        case 'OrderPlaced':
          return onOrderPlaced(deps, event, log);
        case 'RefundRequested':
          return onRefundRequested(deps, event, log);
        case 'TopUpExpiryDue':
          return onTopUpExpiryDue(deps, event, log);
      }
    },
  });
}
