import type { Connection, Logger, OutboxRelay } from '@smm/platform';
import type { CatalogClient } from '../clients/catalog-client.ts';
import type { OrderClient } from '../clients/order-client.ts';
import type { KeyCipher } from '../store/key-cipher.ts';
import type { Providers } from '../store/provider.model.ts';

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
};
