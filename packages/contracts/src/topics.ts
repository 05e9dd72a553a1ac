/** One topic per producing service; the message key is the aggregate id. */
export const Topics = {
  auth: 'auth.events.v1',
  catalog: 'catalog.events.v1',
  wallet: 'wallet.events.v1',
  order: 'order.events.v1',
  scheduler: 'scheduler.events.v1',
  fulfillment: 'fulfillment.events.v1',
  /** Support tickets (issue 40): an operator's answer or close, read by the BFF's live channel. */
  support: 'support.events.v1',
  /** Operators' actions from every service (OperatorActed), read by auth's audit log. */
  audit: 'audit.events.v1',
} as const;

export type Topic = (typeof Topics)[keyof typeof Topics];

/** Events a consumer group could not accept go here with the reason, never back into a retry loop. */
export function deadLetterTopic(consumerGroup: string): string {
  return `dlq.${consumerGroup}.v1`;
}
