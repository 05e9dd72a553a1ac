import type { Logger } from '@smm/platform';
import type { Store } from '../store/store.ts';

/** What the use cases need: the repositories, a logger, and the relay to wake after a commit with events. */
export type WalletDeps = {
  store: Store;
  logger: Logger;
  relay: { kick(): void };
  /** How long a top-up request waits for the transfer before it expires (spec: 3 hours). */
  topUpExpirySeconds: number;
};

/** The consumer name of every processed-event mark the wallet writes. */
export const consumerName = 'wallet';
