import { AutoOrderRunPlaced, OrderPlaced, OrderStatusChanged, PointCredited, RefundRequested, SettingChanged, TopUpExpiryDue, Topics, UserRegistered } from '@smm/contracts';
import { type EventProducer, type Kafka, type Logger, type RunningConsumer, flowCounter, runEventConsumer } from '@smm/platform';
import type { Decision } from '../domain/payments.ts';
import type { WalletDeps } from '../use-cases/context.ts';
import { settleMoneyRequests } from '../use-cases/settle-money-requests.ts';
import { onAutoOrderRun, onReferralDelivery } from './on-referral-delivery.ts';
import { onReferralRefund } from './on-referral-refund.ts';
import { onReferralRegistered } from './on-referral-registered.ts';
import { onSettingChanged } from './on-setting-changed.ts';
import { onTopUpExpiryDue } from './on-top-up-expiry-due.ts';
import { onUserRegistered } from './on-user-registered.ts';

/** Served at /metrics: the money requests of the order topic the wallet decided, by decision. */
const moneyDecisions = flowCounter(
  'wallet_money_decisions_total',
  'Payments and refunds the wallet decided from the order topic, by decision (debited, rejected, credited, duplicate, refused; noted: runs of auto orders)',
  ['decision'] as const,
);

/** How many decisions of each type (every type, zeros included), in one pass over the run. */
function countDecisions(decisions: readonly Decision[]): Record<Decision['type'], number> {
  const counts: Record<Decision['type'], number> = { debited: 0, rejected: 0, credited: 0, duplicate: 0, refused: 0, noted: 0 };
  for (const d of decisions) counts[d.type]++;
  return counts;
}

export type ConsumerGroups = { main: string; payments: string };
export const defaultGroups: ConsumerGroups = { main: 'wallet', payments: 'wallet-payments' };

/**
 * Two consumer groups. `wallet` reads auth, catalog, scheduler, its own events and the order
 * topic's status changes and runs (referrals on delivery) in runs of a partition, each event in
 * offset order by its handler (handleOnce or its own key), with one read per run for which members
 * someone referred. `wallet-payments` reads the order topic in runs of up
 * to 500 events per partition, a fetch's runs of every partition in one transaction (the saga's
 * hot path). Every handler is idempotent, so redelivery and replay (of a whole run after a failure)
 * are safe. The types the contracts define on these topics that the wallet does not handle are
 * skipped; anything else is dead-lettered.
 */
export async function startWalletConsumers(deps: WalletDeps, kafka: Kafka, producer: EventProducer, logger: Logger, groups: ConsumerGroups = defaultGroups): Promise<RunningConsumer> {
  const main = await runEventConsumer({
    mode: 'batch',
    kafka,
    groupId: groups.main,
    // Referrals pay on delivery: the order topic's status changes and runs, and its own topic's refunds.
    topics: [Topics.auth, Topics.catalog, Topics.scheduler, Topics.wallet, Topics.order],
    definitions: [UserRegistered, SettingChanged, TopUpExpiryDue, PointCredited, OrderStatusChanged, AutoOrderRunPlaced] as const,
    producer,
    logger,
    // Off the order's answer path (every order's status change passes here for referrals): fetch in gathered runs.
    gatherMs: 100,
    handleBatch: async (events, log) => {
      const referred = await deps.store.referrals.referredAmong(events.flatMap((e) => (e.type === 'OrderStatusChanged' ? [e.data.userId] : [])));
      for (const event of events) {
        switch (event.type) {
          case 'UserRegistered':
            await onUserRegistered(deps, event, log);
            await onReferralRegistered(deps, event, log);
            break;
          case 'OrderStatusChanged':
            await onReferralDelivery(deps, event, referred, log);
            break;
          case 'AutoOrderRunPlaced':
            await onAutoOrderRun(deps, event);
            break;
          case 'PointCredited':
            await onReferralRefund(deps, event, log);
            break;
          case 'SettingChanged':
            await onSettingChanged(deps, event, log);
            break;
          case 'TopUpExpiryDue':
            await onTopUpExpiryDue(deps, event, log);
            break;
        }
      }
    },
  });
  const payments = await runEventConsumer({
    mode: 'batch',
    // A fetch's runs of all three partitions in one transaction, one transaction at a time.
    partitionsConcurrently: 3,
    acrossPartitions: true,
    kafka,
    groupId: groups.payments,
    topics: [Topics.order],
    // Members wait seconds for this answer: a run still going after 20 s is stuck, not slow.
    handlerTimeoutMs: 20_000,
    // Runs of auto orders: which auto order paid for a child order (its refunds' proof).
    definitions: [OrderPlaced, RefundRequested, AutoOrderRunPlaced] as const,
    producer,
    logger,
    handleBatch: async (events, log) => {
      const decisions = await settleMoneyRequests(deps, events);
      const counts = countDecisions(decisions);
      for (const [decision, n] of Object.entries(counts)) moneyDecisions.add({ decision }, n);
      // One run per order at a low rate: counted at /metrics, logged only at debug.
      const { debited, rejected, credited, duplicate: duplicates, refused } = counts;
      log.debug({ debited, rejected, credited, duplicates, refused }, 'money requests settled');
      // A refund the wallet's records do not prove: nothing credited, listed for operators, dead-lettered.
      return decisions.flatMap((d, i) => {
        if (d.type !== 'refused') return [];
        const { refundId, userId, amountDeci } = d.request;
        log.error({ refundId, userId, amountDeci, code: d.code, reason: d.reason, eventId: events[i]!.eventId }, 'refund refused: not proven by the ledger');
        return [{ event: events[i]!, reason: `${d.code}: ${d.reason}` }];
      });
    },
  });
  return {
    // Together: a consumer still joining its group can take seconds to leave, and two in a row
    // would spend most of the shutdown grace.
    async stop() {
      await Promise.all([payments.stop(), main.stop()]);
    },
  };
}
