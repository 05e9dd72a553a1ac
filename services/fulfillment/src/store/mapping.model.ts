import { Schema } from 'mongoose';
import type { Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';
import type { PriceRule } from '../domain/price-rule.ts';

/**
 * How one product of our catalogue is fulfilled (`_id` = catalog service id). The catalog owns the
 * product; this owns where its orders go. Limits and flags are the provider's, as last imported.
 */
export type Mapping = {
  _id: number;
  mode: 'provider' | 'manual';
  providerId: number | null;
  providerServiceId: string | null;
  rule: PriceRule | null;
  allowBelowCost: boolean;
  costDeci: number | null;
  unitPriceDeci: number | null;
  min: number | null;
  max: number | null;
  dripfeed: boolean;
  refill: boolean;
  cancel: boolean;
  /** Set by the price sync when the provider dropped or disabled the service, or the price fell below cost. */
  suspendedReason: string | null;
  updatedAt: Date;
};

const mappingSchema = new Schema<Mapping>(
  {
    _id: { type: Number, required: true },
    mode: { type: String, required: true, enum: ['provider', 'manual'] },
    providerId: { type: Number, default: null },
    providerServiceId: { type: String, default: null },
    rule: { type: Schema.Types.Mixed, default: null },
    allowBelowCost: { type: Boolean, default: false },
    costDeci: { type: Number, default: null },
    unitPriceDeci: { type: Number, default: null },
    min: { type: Number, default: null },
    max: { type: Number, default: null },
    dripfeed: { type: Boolean, default: false },
    refill: { type: Boolean, default: false },
    cancel: { type: Boolean, default: false },
    suspendedReason: { type: String, default: null },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'mappings', versionKey: false, minimize: false },
);
mappingSchema.index({ providerId: 1 });

export function mappings(connection: Connection): Model<Mapping> {
  return modelOn(connection, 'Mapping', mappingSchema);
}
