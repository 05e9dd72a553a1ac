import { Schema } from 'mongoose';
import type { Connection, Model } from 'mongoose';
import { type OrderDetails, type ServiceType, type SubscriptionTerms, serviceTypes } from '@smm/contracts';
import { modelOn } from '@smm/platform';
import { type ForwardState, forwardStates } from '../domain/forward-state.ts';

/** A change fulfillment still has to bring to the order service (PATCH /admin/orders/:id). */
export type OrderPatch = { id: string; status: number; startCount: number | null; remains: number; reason: string | null };

/** One paid order on its way to (and through) a provider. `_id` = our order id, so it exists once. */
export type Forward = {
  _id: number;
  userId: string;
  productId: number | null;
  link: string | null;
  amount: number | null;
  /** 'order' from OrderAccepted, 'run' from AutoOrderRunPlaced, 'subscription' from a subscription's OrderAccepted (issue 40). */
  source: 'order' | 'run' | 'subscription';
  state: ForwardState;
  providerId: number | null;
  providerServiceId: string | null;
  attempts: number;
  nextAttemptAt: Date;
  claimedBy: string | null;
  claimedAt: Date | null;
  sentAt: Date | null;
  providerOrderId: string | null;
  /**
   * The Idempotency-Key sent with `add`, stored with the `sent` mark before the call. Kept while
   * the outcome is unknown (a re-send with it is answered with the order the provider already
   * took); cleared when the provider definitely took nothing (not enough funds, never reached).
   */
  reference?: string | null;
  /** Re-sends with the same reference after unknown outcomes (bounded, then review). */
  unknownResends?: number;
  /** Why it waits for an operator, or the last failure. */
  note: string | null;
  /**
   * The provider's last answer that was not understood or not a success (an `add` without a
   * positive order id, a `status` entry with an unknown status or bad remains), as it was sent
   * (cut to 500 characters), so an operator can see what the provider said.
   */
  providerAnswer?: string | null;
  /** 'accepted' when the status sync put an order the provider took into review (resume is then possible, resend is not). */
  reviewFrom?: 'accepted' | null;
  providerStatus: string | null;
  status: number;
  startCount: number | null;
  remains: number;
  syncedAt: Date | null;
  orderPatch: OrderPatch | null;
  /** Set with `orderPatch`, removed with it: the order patcher's queue, read by equality from an index (no scan). */
  patchPending?: true;
  /** When the member's cancel was accepted by the provider; the refund follows its Canceled status. */
  cancelRequestedAt?: Date | null;
  /** What the provider last reported charging (`status` → `charge`, its currency), and that in deci-won at its rate then (issue 41). */
  providerCharge?: string | null;
  costDeci?: number | null;
  correlationId: string;
  /** The product's type when the order was placed and what the member gave for it (sent with `add`); absent: default. */
  serviceType?: ServiceType;
  details?: OrderDetails;
  /**
   * A subscription (source `subscription`): its terms (sent with `add`), the provider's order id of
   * each post recorded so far (post n at index n − 1, written before the post is recorded with the
   * order service) and the provider's last state word.
   */
  subscription?: SubscriptionTerms;
  postOrders?: string[];
  /** How many of `postOrders` the order service has recorded as posts. */
  postsRecorded?: number;
  /** A subscription's post (source `run`): the subscription (auto order) and the post's number. */
  subscriptionPost?: { autoOrderId: number; run: number };
  createdAt: Date;
  updatedAt: Date;
};

const forwardSchema = new Schema<Forward>(
  {
    _id: { type: Number, required: true },
    userId: { type: String, required: true },
    productId: { type: Number, default: null },
    link: { type: String, default: null },
    amount: { type: Number, default: null },
    source: { type: String, required: true, enum: ['order', 'run', 'subscription'] },
    state: { type: String, required: true, enum: forwardStates },
    providerId: { type: Number, default: null },
    providerServiceId: { type: String, default: null },
    attempts: { type: Number, default: 0 },
    nextAttemptAt: { type: Date, required: true },
    claimedBy: { type: String, default: null },
    claimedAt: { type: Date, default: null },
    sentAt: { type: Date, default: null },
    providerOrderId: { type: String, default: null },
    reference: { type: String, default: null },
    unknownResends: { type: Number, default: 0 },
    note: { type: String, default: null },
    providerAnswer: { type: String, default: null },
    reviewFrom: { type: String, default: null },
    providerStatus: { type: String, default: null },
    status: { type: Number, default: 0 },
    startCount: { type: Number, default: null },
    remains: { type: Number, default: 0 },
    syncedAt: { type: Date, default: null },
    orderPatch: { type: Schema.Types.Mixed, default: null },
    patchPending: { type: Boolean },
    cancelRequestedAt: { type: Date, default: null },
    providerCharge: { type: String, default: null },
    costDeci: { type: Number, default: null },
    correlationId: { type: String, required: true },
    serviceType: { type: String, enum: serviceTypes },
    details: { type: Schema.Types.Mixed, default: undefined },
    subscription: { type: Schema.Types.Mixed, default: undefined },
    postOrders: { type: [String], default: undefined },
    postsRecorded: { type: Number, default: undefined },
    subscriptionPost: { type: Schema.Types.Mixed, default: undefined },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'forwards', versionKey: false, minimize: false },
);
// The forwarder's queue per provider, the status sync's open orders, the recovery of stale claims.
forwardSchema.index({ state: 1, providerId: 1, nextAttemptAt: 1 });
forwardSchema.index({ state: 1, providerId: 1, syncedAt: 1 });
forwardSchema.index({ patchPending: 1 });
// The operators' order list filtered by provider (issue 12): alone or with a member, a product or
// a link; the equalities, then `_id` newest first (see use-cases/order-forwards.ts).
forwardSchema.index({ providerId: 1, _id: -1 });
forwardSchema.index({ providerId: 1, userId: 1, _id: -1 });
forwardSchema.index({ providerId: 1, productId: 1, _id: -1 });
forwardSchema.index({ providerId: 1, link: 1, _id: -1 });
// The profit report's date ranges (issue 41).
forwardSchema.index({ createdAt: 1 });

export function forwards(connection: Connection): Model<Forward> {
  return modelOn(connection, 'Forward', forwardSchema);
}
