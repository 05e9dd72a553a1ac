import { randomUUID } from 'node:crypto';
import { Topics } from '@smm/contracts';
import { appendToOutbox, inTransaction } from '@smm/platform';
import type { Answer } from '../clients/provider-api.ts';
import { fetchBalance } from '../clients/provider-api.ts';
import { compareDecimal, parseDecimal } from '../domain/decimal.ts';
import { providerBalanceLow } from '../events/fulfillment-events.ts';
import type { Provider } from '../store/provider.model.ts';
import { messages } from '../domain/messages.ts';
import { type FulfillmentDeps, endpointOf } from './context.ts';
import { addNotice } from './notices.ts';

/** Below a positive threshold; "0" means no alert. */
export function isLow(balance: string, threshold: string): boolean {
  const b = parseDecimal(balance);
  const t = parseDecimal(threshold);
  if (!b || !t || t.units <= 0n) return false;
  return compareDecimal(b, t) < 0;
}

/**
 * Stores a `balance` answer (or its failure). Crossing below the threshold raises ProviderBalanceLow
 * once, in the same transaction as the flag, so a repeated check does not repeat the alert.
 */
export async function refreshBalance(deps: FulfillmentDeps, provider: Provider, answer: Answer<{ balance: string; currency: string }>): Promise<Provider> {
  if (!answer.ok) {
    await deps.providers.callFailed(provider._id, 'balance', answer.detail);
    return (await deps.providers.find(provider._id)) ?? provider;
  }
  const low = isLow(answer.value.balance, provider.lowBalanceThreshold);
  let raised = false;
  const updated = await inTransaction(deps.connection, async (session) => {
    raised = false;
    const before = await deps.providers.find(provider._id, session);
    if (!before) return provider;
    const set = { balance: answer.value.balance, balanceCheckedAt: new Date(), balanceLow: low, lastError: null, failingSince: null, lastCallAt: new Date(), lastCallAction: 'balance' };
    const after = await deps.providers.model.findOneAndUpdate({ _id: provider._id }, { $set: set }, { returnDocument: 'after', session }).lean<Provider>();
    if (low && !before.balanceLow) {
      const event = providerBalanceLow(
        { providerId: provider._id, name: provider.name, balance: answer.value.balance, threshold: provider.lowBalanceThreshold, currency: provider.currency },
        { correlationId: randomUUID() },
      );
      await appendToOutbox(deps.connection, session, Topics.fulfillment, [event]);
      const threshold = `${provider.lowBalanceThreshold} ${provider.currency}`;
      await addNotice(deps, session, { kind: 'balance-low', providerId: provider._id, productId: null, text: messages.noticeBalanceLow(provider.name, `${answer.value.balance} ${provider.currency}`, threshold) });
      raised = true;
    }
    return after ?? provider;
  });
  if (raised) {
    deps.relay.kick();
    deps.logger.warn({ providerId: provider._id, balance: answer.value.balance, threshold: provider.lowBalanceThreshold }, 'provider balance low');
  }
  return updated;
}

/** The periodic refresh: every provider's balance, one at a time (a few calls per period). */
export async function refreshAllBalances(deps: FulfillmentDeps): Promise<void> {
  for (const provider of await deps.providers.list()) {
    const answer = await fetchBalance(endpointOf(deps, provider), deps.providerTimeoutMs);
    await refreshBalance(deps, provider, answer);
  }
}
