import { Schema } from 'mongoose';
import type { Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';

export type RequestKind = 'refill' | 'cancel';

/**
 * A member's or reseller's refill or cancel of a forwarded order, on its way to the provider
 * (issue 41, request queues). `_id` is `<kind>-<number>`; a refill's number is the refill id members
 * and resellers see (API v2 `refill`, `refill_status`).
 *
 *   sending ──answer──▶ forwarded ──refill final / order Canceled──▶ done
 *      │                    └── refill Rejected, order started instead ──▶ failed
 *      ├── provider: not ready yet, ask again ──▶ waiting ──status sync──▶ sending
 *      │                                    (the order there is a moment old; stays open)
 *      ├── provider refused ──▶ failed                (nothing pending at the provider)
 *      └── no clear answer  ──▶ failed, unclear       (the provider may hold it: stays open)
 *   failed ──operator: retry──▶ sending    failed ──operator: close──▶ closed
 *
 * `open` is set while the request holds its order's one slot (sending, waiting, forwarded, unclear): a
 * unique partial index on {kind, orderId, open} keeps a second one from being forwarded, so a
 * repeated refill is answered with the open one and a repeated cancel is told it was asked already.
 */
export type RequestState = 'sending' | 'waiting' | 'forwarded' | 'failed' | 'done' | 'closed';
export type ProviderRequest = {
  _id: string;
  kind: RequestKind;
  number: number;
  orderId: number;
  userId: string;
  providerId: number;
  providerOrderId: string;
  state: RequestState;
  open?: true;
  /** The provider's refill id (refills). */
  providerRequestId: string | null;
  /** The provider's refill status as it last answered (refills); the order's for cancels once settled. */
  status: string | null;
  /** The provider's last answer as sent (≤ 500 characters), kept for operators. */
  answer: string | null;
  /** Why it failed (the provider's words, or what went wrong on the way). */
  error: string | null;
  /** Failed without a clear answer: the provider may hold it, so it is never re-sent by itself. */
  unclear: boolean;
  attempts: number;
  /** Operator's note when closing, or what happened (e.g. "canceled before sending"). */
  note: string | null;
  createdAt: Date;
  updatedAt: Date;
  checkedAt: Date | null;
  sentAt: Date | null;
};

const requestSchema = new Schema<ProviderRequest>(
  {
    _id: { type: String, required: true },
    kind: { type: String, required: true, enum: ['refill', 'cancel'] },
    number: { type: Number, required: true },
    orderId: { type: Number, required: true },
    userId: { type: String, required: true },
    providerId: { type: Number, required: true },
    providerOrderId: { type: String, required: true },
    state: { type: String, required: true, enum: ['sending', 'waiting', 'forwarded', 'failed', 'done', 'closed'] },
    open: { type: Boolean },
    providerRequestId: { type: String, default: null },
    status: { type: String, default: null },
    answer: { type: String, default: null },
    error: { type: String, default: null },
    unclear: { type: Boolean, default: false },
    attempts: { type: Number, default: 0 },
    note: { type: String, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    checkedAt: { type: Date, default: null },
    sentAt: { type: Date, default: null },
  },
  { collection: 'requests', versionKey: false, minimize: false },
);
// One open request of a kind per order: the guard against forwarding a refill or cancel twice.
requestSchema.index({ kind: 1, orderId: 1 }, { unique: true, partialFilterExpression: { open: true } });
// The operators' queue by state, newest first; the syncs' open refills and cancels.
requestSchema.index({ state: 1, updatedAt: -1 });
requestSchema.index({ orderId: 1 });

export function requests(connection: Connection): Model<ProviderRequest> {
  return modelOn(connection, 'ProviderRequest', requestSchema);
}

export const requestId = (kind: RequestKind, number: number) => `${kind}-${number}`;
