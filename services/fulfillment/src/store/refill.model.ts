import { Schema } from 'mongoose';
import type { Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';

/** A member's refill request, forwarded to the provider. `_id` is our refill id (what members and resellers see). */
export type Refill = { _id: number; orderId: number; userId: string; providerId: number; providerRefillId: string; status: string; createdAt: Date; checkedAt: Date | null };

const refillSchema = new Schema<Refill>(
  {
    _id: { type: Number, required: true },
    orderId: { type: Number, required: true },
    userId: { type: String, required: true },
    providerId: { type: Number, required: true },
    providerRefillId: { type: String, required: true },
    status: { type: String, required: true },
    createdAt: { type: Date, required: true },
    checkedAt: { type: Date, default: null },
  },
  { collection: 'refills', versionKey: false },
);
refillSchema.index({ orderId: 1 });

export function refills(connection: Connection): Model<Refill> {
  return modelOn(connection, 'Refill', refillSchema);
}
