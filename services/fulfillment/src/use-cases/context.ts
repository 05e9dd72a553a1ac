import type { Connection, Logger, OutboxRelay } from '@smm/platform';
import type { CatalogClient } from '../clients/catalog-client.ts';
import type { OrderClient } from '../clients/order-client.ts';
import type { KeyCipher } from '../store/key-cipher.ts';
import type { Provider, Providers } from '../store/provider.model.ts';
import type { ProviderEndpoint } from '../clients/provider-api.ts';

export type FulfillmentDeps = {
  connection: Connection;
  logger: Logger;
  relay: OutboxRelay;
  providers: Providers;
  cipher: KeyCipher;
  catalog: CatalogClient;
  order: OrderClient;
  /** Longest wait for one provider call. */
  providerTimeoutMs: number;
  /** First retry pause after a retryable `add` failure; doubles per attempt. */
  retryBaseMs: number;
  /**
   * Longest wait, inside a refill or cancel request, for the record of a paid order this service
   * has not taken in yet (it comes from the order's OrderAccepted a moment after the order was
   * answered); past it the request is answered ORDER_NOT_READY (503, ask again).
   */
  recordWaitMs: number;
  /** Provider URLs may reach loopback and private addresses (FULFILLMENT_ALLOW_PRIVATE_PROVIDERS). */
  allowPrivateProviders: boolean;
};

/** How to call a provider: its URL, its key opened for the call, and whether private addresses may be reached. */
export const endpointOf = (deps: FulfillmentDeps, p: Provider): ProviderEndpoint => ({ url: p.url, key: deps.cipher.open(p.key), allowPrivate: deps.allowPrivateProviders });
