import { durationHistogram } from '@smm/platform';

/** Served at /metrics: how long a paid order waits before its provider has answered. */
export const forwardDuration = durationHistogram(
  'fulfillment_forward_duration_seconds',
  'Time from a paid order reaching fulfillment to a provider answer being recorded, by outcome kind (accepted, refused, retry-funds, …); a retried order is observed at each answer',
  ['outcome'] as const,
);
