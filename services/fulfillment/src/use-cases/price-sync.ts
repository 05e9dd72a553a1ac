import { randomUUID } from 'node:crypto';
import { Topics } from '@smm/contracts';
import { appendToOutbox, inTransaction } from '@smm/platform';
import { fetchServices } from '../clients/provider-api.ts';
import { messages } from '../domain/messages.ts';
import { productRepriced, productResumed, productSuspended } from '../events/fulfillment-events.ts';
import { type ProviderService, providerServiceId, providerServices } from '../store/catalog.model.ts';
import { type Mapping, mappings } from '../store/mapping.model.ts';
import { type FulfillmentDeps, endpointOf } from './context.ts';
import { storeServices } from './import-services.ts';
import { pricedMapping } from './map-product.ts';
import { addNotice } from './notices.ts';

export type PriceSyncStats = { providers: number; repriced: number; suspended: number; resumed: number };

const wonText = (deci: number) => `${Math.trunc(deci / 10).toLocaleString('ko-KR')}${deci % 10 === 0 ? '' : `.${deci % 10}`}원`;

/**
 * Notices provider price changes and services that disappeared. A markup product is repriced
 * through the catalog's admin API (so ServiceUpserted flows as for any edit); a product that would
 * sell below cost without the operator's override, or whose service is gone, is made read-only
 * and its mapping says why; it resumes when the cause goes away. Each of these is announced
 * (ProductRepricedFromProvider, ProductSuspendedByProvider, ProductResumedByProvider) and left as
 * a notice for operators, in the transaction that records it.
 */
export async function syncPrices(deps: FulfillmentDeps): Promise<PriceSyncStats> {
  const stats: PriceSyncStats = { providers: 0, repriced: 0, suspended: 0, resumed: 0 };
  for (const provider of await deps.providers.list()) {
    const answer = await fetchServices(endpointOf(deps, provider), deps.providerTimeoutMs);
    if (!answer.ok) {
      deps.logger.warn({ providerId: provider._id, detail: answer.detail }, 'price sync could not read the provider; products unchanged');
      continue;
    }
    stats.providers++;
    await storeServices(deps, provider._id, answer.value.services);
    for (const mapping of await mappings(deps.connection).find({ mode: 'provider', providerId: provider._id }).lean<Mapping[]>()) {
      const service = await providerServices(deps.connection).findById(providerServiceId(provider._id, mapping.providerServiceId!)).lean<ProviderService>();
      if (!service || !service.listed) {
        if (mapping.suspendedReason === null) {
          await suspend(deps, mapping, 'service-gone', messages.suspendedGone);
          stats.suspended++;
        }
        continue;
      }
      const { costDeci, verdict, min, max } = pricedMapping(provider, service, mapping.rule!, mapping.allowBelowCost);
      if (!verdict.ok) {
        if (mapping.suspendedReason === null) {
          await suspend(deps, mapping, 'below-cost', messages.suspendedBelowCost(wonText(verdict.unitPriceDeci), wonText(verdict.costDeci)), costDeci);
          stats.suspended++;
        }
        continue;
      }
      const changed = verdict.unitPriceDeci !== mapping.unitPriceDeci || min !== mapping.min || max !== mapping.max || costDeci !== mapping.costDeci;
      const flags = { dripfeed: service.dripfeed, refill: service.refill, cancel: service.cancel };
      if (!changed && mapping.suspendedReason === null) {
        await mappings(deps.connection).updateOne({ _id: mapping._id }, { $set: flags });
        continue;
      }
      const product = await deps.catalog.update(mapping._id, { unitPriceDeci: verdict.unitPriceDeci, min, max, ...(mapping.suspendedReason === null ? {} : { isReadOnly: false }) });
      const ids = { productId: mapping._id, providerId: provider._id, providerServiceId: mapping.providerServiceId! };
      const name = `#${mapping._id} ${product.text}`;
      await inTransaction(deps.connection, async (session) => {
        await mappings(deps.connection).updateOne({ _id: mapping._id }, { $set: { costDeci, unitPriceDeci: verdict.unitPriceDeci, min, max, ...flags, suspendedReason: null, updatedAt: new Date() } }, { session });
        const origin = { correlationId: randomUUID() };
        if (mapping.suspendedReason !== null) {
          await appendToOutbox(deps.connection, session, Topics.fulfillment, [productResumed({ ...ids, unitPriceDeci: verdict.unitPriceDeci }, origin)]);
          await addNotice(deps, session, { kind: 'resumed', providerId: provider._id, productId: mapping._id, text: messages.noticeResumed(name, wonText(verdict.unitPriceDeci)) });
        } else if (verdict.unitPriceDeci !== mapping.unitPriceDeci) {
          await appendToOutbox(deps.connection, session, Topics.fulfillment, [productRepriced({ ...ids, fromUnitPriceDeci: mapping.unitPriceDeci, toUnitPriceDeci: verdict.unitPriceDeci, costDeci }, origin)]);
          const from = mapping.unitPriceDeci === null ? '—' : wonText(mapping.unitPriceDeci);
          await addNotice(deps, session, { kind: 'repriced', providerId: provider._id, productId: mapping._id, text: messages.noticeRepriced(name, from, wonText(verdict.unitPriceDeci), wonText(costDeci)) });
        }
      });
      deps.relay.kick();
      if (mapping.suspendedReason === null) stats.repriced++;
      else stats.resumed++;
      deps.logger.info({ productId: mapping._id, from: mapping.unitPriceDeci, to: verdict.unitPriceDeci, costDeci }, 'product repriced from its provider');
    }
  }
  return stats;
}

async function suspend(deps: FulfillmentDeps, mapping: Mapping, kind: 'service-gone' | 'below-cost', reason: string, costDeci?: number): Promise<void> {
  const product = await deps.catalog.update(mapping._id, { isReadOnly: true });
  await inTransaction(deps.connection, async (session) => {
    await mappings(deps.connection).updateOne({ _id: mapping._id }, { $set: { suspendedReason: reason, ...(costDeci === undefined ? {} : { costDeci }), updatedAt: new Date() } }, { session });
    const event = productSuspended({ productId: mapping._id, providerId: mapping.providerId!, providerServiceId: mapping.providerServiceId!, reason: kind, detail: reason }, { correlationId: randomUUID() });
    await appendToOutbox(deps.connection, session, Topics.fulfillment, [event]);
    await addNotice(deps, session, { kind: 'suspended', providerId: mapping.providerId!, productId: mapping._id, text: messages.noticeSuspended(`#${mapping._id} ${product.text}`, reason) });
  });
  deps.relay.kick();
  deps.logger.warn({ productId: mapping._id, providerId: mapping.providerId, reason }, 'product made read-only by the price sync; operators must look');
}
