import type { Logger } from 'pino';
import type { GroupCoordinator } from './groups/coordinator.ts';
import type { OffsetStore } from './groups/offset-store.ts';
import type { TopicStore } from './log/topic-store.ts';
import type { AppendNotifier } from './append-notifier.ts';
import type { BrokerMeta } from './broker-meta.ts';
import type { BrokerStats } from './stats.ts';

/** Everything a request handler may touch; one per running broker. */
export interface BrokerContext {
  nodeId: number;
  advertisedHost: string;
  advertisedPort: number;
  topics: TopicStore;
  offsets: OffsetStore;
  groups: GroupCoordinator;
  appends: AppendNotifier;
  meta: BrokerMeta;
  autoCreateTopics: boolean;
  defaultPartitions: number;
  /** Broker-wide log settings, which are also every topic's (DescribeConfigs). */
  log: { retentionMs: number; retentionBytes: number; segmentBytes: number };
  /** fdatasync before acknowledging acks=-1 produces and offset commits. */
  fsync: boolean;
  logger: Logger;
  stats: BrokerStats;
  closed: boolean;
}

export interface RequestHeader {
  apiKey: number;
  apiVersion: number;
  correlationId: number;
  clientId: string | null;
  /** Address of the peer, for DescribeGroups. */
  clientHost: string;
}
