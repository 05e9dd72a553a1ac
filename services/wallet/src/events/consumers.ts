import { OrderPlaced, RefundRequested, SettingChanged, TopUpExpiryDue, Topics, UserRegistered } from '@smm/contracts';
import { type EventProducer, type Kafka, type Logger, type RunningConsumer, runEventConsumer } from '@smm/platform';
import type { WalletDeps } from '../use-cases/context.ts';
import { settleMoneyRequests } from '../use-cases/settle-money-requests.ts';
import { runBatchConsumer } from './batch-consumer.ts';
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

export type ConsumerGroups = { main: string; payments: string };
export const defaultGroups: ConsumerGroups = { main: 'wallet', payments: 'wallet-payments' };

/**
 * Two consumer groups. `wallet` reads auth, catalog and scheduler events one at a time (handleOnce
 * per event). `wallet-payments` reads the order topic in runs of up to 500 events per transaction
 * (the saga's hot path). Every handler is idempotent, so redelivery and replay are safe.
 */
export async function startWalletConsumers(deps: WalletDeps, kafka: Kafka, producer: EventProducer, logger: Logger, groups: ConsumerGroups = defaultGroups): Promise<RunningConsumer> {
  const main = await runEventConsumer({
    kafka,
    groupId: groups.main,
    topics: [Topics.auth, Topics.catalog, Topics.scheduler],
    definitions: [UserRegistered, SettingChanged, TopUpExpiryDue] as const,
    ignore: ignoredEvents,
    producer,
    logger,
    handle: async (event, { log }) => {
      switch (event.type) {
        case 'UserRegistered':
          return onUserRegistered(deps, event, log);
        case 'SettingChanged':
          return onSettingChanged(deps, event, log);
        case 'TopUpExpiryDue':
          return onTopUpExpiryDue(deps, event, log);
      }
    },
  });
  const payments = await runBatchConsumer({
    kafka,
    groupId: groups.payments,
    topics: [Topics.order],
    definitions: [OrderPlaced, RefundRequested] as const,
    ignore: ignoredEvents,
    producer,
    logger,
    handle: async (events, log) => {
      const decisions = await settleMoneyRequests(deps, events);
      const count = (type: string) => decisions.filter((d) => d.type === type).length;
      log.info(
        { debited: count('debited'), rejected: count('rejected'), credited: count('credited'), duplicates: count('duplicate'), refused: count('refused') },
        'money requests settled',
      );
      return decisions.flatMap((d, i) => (d.type === 'refused' ? [{ event: events[i]!, reason: d.reason }] : []));
    },
  });
  return {
    async stop() {
      await payments.stop();
      await main.stop();
    },
  };
}
