import { Schema } from 'mongoose';
import type { Connection, Model } from 'mongoose';
import { modelOn } from '@smm/platform';

/** One service of a provider's `services` list, as last imported. `rate` is per 1000, exact text. */
export type ProviderService = {
  _id: string;
  providerId: number;
  serviceId: string;
  name: string;
  type: string;
  category: string;
  rate: string;
  min: number;
  max: number;
  dripfeed: boolean;
  refill: boolean;
  cancel: boolean;
  /** False once a later import no longer lists it. */
  listed: boolean;
  importedAt: Date;
};

const providerServiceSchema = new Schema<ProviderService>(
  {
    _id: { type: String, required: true },
    providerId: { type: Number, required: true },
    serviceId: { type: String, required: true },
    name: { type: String, required: true },
    type: { type: String, default: 'Default' },
    category: { type: String, default: '' },
    rate: { type: String, required: true },
    min: { type: Number, required: true },
    max: { type: Number, required: true },
    dripfeed: { type: Boolean, default: false },
    refill: { type: Boolean, default: false },
    cancel: { type: Boolean, default: false },
    listed: { type: Boolean, default: true },
    importedAt: { type: Date, required: true },
  },
  { collection: 'provider_services', versionKey: false },
);
providerServiceSchema.index({ providerId: 1, serviceId: 1 });

export const providerServiceId = (providerId: number, serviceId: string) => `${providerId}:${serviceId}`;

export function providerServices(connection: Connection): Model<ProviderService> {
  return modelOn(connection, 'ProviderService', providerServiceSchema);
}
