import { durationHistogram } from '@smm/platform';

/** Served at /metrics: how long members wait for the wallet's verdict on a placed order. */
export const sagaDuration = durationHistogram(
  'order_saga_duration_seconds',
  'Time from an order being placed (OrderPlaced) to the wallet answer being applied, by outcome (paid or rejected)',
  ['outcome'] as const,
);
