export { startEmbeddedKafka } from './broker.ts';
export type { EmbeddedKafka, EmbeddedKafkaOptions } from './broker.ts';
export { EmbeddedKafkaError } from './errors.ts';
export type { KafkaUser, SaslOptions } from './auth/acl.ts';
export type { EmbeddedKafkaErrorCode } from './errors.ts';
