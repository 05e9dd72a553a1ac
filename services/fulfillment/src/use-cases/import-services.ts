import type { ImportResultBody, ProviderServiceViewBody } from '@smm/contracts/http';
import { HttpError } from '@smm/platform';
import { type RemoteService, fetchServices } from '../clients/provider-api.ts';
import { messages } from '../domain/messages.ts';
import { type ProviderService, providerServiceId, providerServices } from '../store/catalog.model.ts';
import type { FulfillmentDeps } from './context.ts';
import { endpointOf } from './context.ts';
import { requireProvider } from './providers.ts';

export function providerServiceView(s: ProviderService) {
  return { service: s.serviceId, name: s.name, type: s.type, category: s.category, rate: s.rate, min: s.min, max: s.max, dripfeed: s.dripfeed, refill: s.refill, cancel: s.cancel, listed: s.listed } satisfies ProviderServiceViewBody;
}

/**
 * `action=services`: stores the provider's list (rate, limits, dripfeed, refill, cancel) for
 * mapping. Services the provider no longer lists stay, marked unlisted, so mappings to them can
 * be told apart from unknown ids.
 */
export async function importServices(deps: FulfillmentDeps, providerId: number) {
  const provider = await requireProvider(deps, providerId);
  const answer = await fetchServices(endpointOf(deps, provider), deps.providerTimeoutMs);
  if (!answer.ok) throw new HttpError(502, 'PROVIDER_UNAVAILABLE', messages.providerUnreachable(answer.detail));
  await storeServices(deps, providerId, answer.value.services);
  return { imported: answer.value.services.length, skipped: answer.value.skipped } satisfies ImportResultBody;
}

/** Replaces the stored list of a provider's services with what it lists now. */
export async function storeServices(deps: FulfillmentDeps, providerId: number, seen: readonly RemoteService[]): Promise<void> {
  const model = providerServices(deps.connection);
  const importedAt = new Date();
  if (seen.length > 0) {
    await model.bulkWrite(
      seen.map((s) => ({
        updateOne: {
          filter: { _id: providerServiceId(providerId, s.service) },
          update: { $set: { providerId, serviceId: s.service, name: s.name, type: s.type, category: s.category, rate: s.rate, min: s.min, max: s.max, dripfeed: s.dripfeed, refill: s.refill, cancel: s.cancel, listed: true, importedAt } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
  }
  await model.updateMany({ providerId, importedAt: { $ne: importedAt } }, { $set: { listed: false } });
}

export async function listProviderServices(deps: FulfillmentDeps, providerId: number) {
  await requireProvider(deps, providerId);
  const items = await providerServices(deps.connection).find({ providerId }).sort({ _id: 1 }).lean<ProviderService[]>();
  return items.map(providerServiceView);
}
