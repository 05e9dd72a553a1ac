import { Topics } from '@smm/contracts';

/**
 * What one Kafka principal may do. Names are literal, or `prefix*` (Kafka's PREFIXED pattern).
 * produce = WRITE, consume = READ, describe = DESCRIBE only, create = CREATE, groups = READ and
 * DELETE of consumer groups; WRITE and READ imply DESCRIBE, as in Kafka.
 */
export type KafkaGrant = {
  produce: readonly string[];
  consume: readonly string[];
  describe: readonly string[];
  create: readonly string[];
  groups: readonly string[];
};

/** Dead letters of a service's consumer groups: every group a service runs starts with its name. */
const deadLetters = (service: string) => `dlq.${service}*`;

function grant(service: string, own: { produce: string[]; consume: string[]; groups: boolean; describe?: string[] }): KafkaGrant {
  const dlq = own.groups ? [deadLetters(service)] : [];
  return {
    produce: [...own.produce, ...dlq],
    consume: own.consume,
    describe: own.describe ?? [],
    // Each service creates the topics it writes and reads at start (ensureTopics), whichever starts first.
    create: [...new Set([...own.produce, ...own.consume, ...dlq])],
    groups: own.groups ? [`${service}*`] : [],
  };
}

/**
 * One principal per service: each writes only its own topic (plus the operator audit topic when it
 * records operators' actions, and its consumer groups' dead letters) and reads what it consumes.
 * The BFF's principal reads wallet, order and support events for the members' live channel (a group per
 * process, `bff-live-…`, deleted when it stops) and counts dead letters. The devstack's embedded
 * broker and docker-compose.yml's ACLs are both made from this table.
 */
export const kafkaPrincipals = {
  auth: grant('auth', { produce: [Topics.auth, Topics.audit], consume: [Topics.catalog, Topics.audit], groups: true }),
  catalog: grant('catalog', { produce: [Topics.catalog, Topics.audit], consume: [], groups: false }),
  wallet: grant('wallet', { produce: [Topics.wallet, Topics.audit], consume: [Topics.auth, Topics.catalog, Topics.scheduler, Topics.wallet, Topics.order], groups: true }),
  order: grant('order', { produce: [Topics.order, Topics.audit], consume: [Topics.catalog, Topics.wallet, Topics.scheduler], groups: true }),
  scheduler: grant('scheduler', { produce: [Topics.scheduler], consume: [Topics.order, Topics.wallet], groups: true }),
  fulfillment: grant('fulfillment', { produce: [Topics.fulfillment, Topics.audit], consume: [Topics.order], groups: true }),
  // Support tickets (issue 40): its own topic (answers for the live channel) and operators' actions; it reads nothing.
  support: grant('support', { produce: [Topics.support, Topics.audit], consume: [], groups: false }),
  bff: { produce: [], consume: [Topics.wallet, Topics.order, Topics.support], describe: ['dlq.*'], create: [], groups: ['bff-live-*'] },
} as const satisfies Record<string, KafkaGrant>;

export type KafkaPrincipal = keyof typeof kafkaPrincipals;
