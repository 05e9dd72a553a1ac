import { z } from 'zod';
import { deciWonSchema } from '../money.ts';
import { defineEvent } from '../envelope.ts';
import { serviceTypes } from '../service-types.ts';

/**
 * A product was created or changed: everything other services replicate (order validates min, max,
 * enableAuto, isReadOnly and prices against its replica). Aggregate id: `service-<serviceId>`.
 */
export const ServiceUpserted = defineEvent(
  'ServiceUpserted',
  1,
  z.object({
    serviceId: z.number().int().positive(),
    text: z.string().min(1),
    platformId: z.number().int().positive(),
    categoryId: z.number().int().positive(),
    min: z.number().int().positive(),
    max: z.number().int().positive(),
    /** Unit price per 1 quantity in deci-won (0.1 won). */
    unitPriceDeci: deciWonSchema.positive(),
    enableAuto: z.boolean(),
    isReadOnly: z.boolean(),
    /**
     * Whether members can see and order it: the product's own flag AND its platform's. Hiding or
     * showing a platform, or moving a category to another platform, re-announces its products.
     */
    visible: z.boolean(),
    /** What the member gives besides the link (service-types.ts); events from before types read as default. */
    type: z.enum(serviceTypes).default('default'),
  }),
);

/** A product was deleted; replicas drop it. Aggregate id: `service-<serviceId>`. */
export const ServiceRemoved = defineEvent('ServiceRemoved', 1, z.object({ serviceId: z.number().int().positive() }));

/**
 * A site setting changed (or was first set, including by the first-start seed). `key` is one of
 * `allSettingKeys`; flags carry "true"/"false". Aggregate id: `setting-<key>`.
 */
export const SettingChanged = defineEvent('SettingChanged', 1, z.object({ key: z.string().min(1), value: z.string() }));

export const catalogEvents = [ServiceUpserted, ServiceRemoved, SettingChanged] as const;
