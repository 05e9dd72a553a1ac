import type { ServiceType } from '@smm/contracts';

/** What order keeps of a catalogue product (replicated from ServiceUpserted). */
export type Product = {
  serviceId: number;
  text: string;
  platformId: number;
  categoryId: number;
  min: number;
  max: number;
  unitPriceDeci: number;
  enableAuto: boolean;
  isReadOnly: boolean;
  /** The product's own flag and its platform's: hidden products cannot be ordered. */
  visible: boolean;
  /** Absent in a replica written before product types: default. */
  type?: ServiceType;
};
