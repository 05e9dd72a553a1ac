import type { Logger } from 'pino';
import type { GroupCoordinator } from './groups/coordinator.ts';
import type { OffsetStore } from './groups/offset-store.ts';
import type { TopicStore } from './log/topic-store.ts';
import type { AppendNotifier } from './append-notifier.ts';
import type { BrokerMeta } from './broker-meta.ts';
import type { BrokerStats } from './stats.ts';
import type { Authorizer } from './auth/acl.ts';

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
  /**
   * Whether the broker fdatasyncs at all. With `flushIntervalMs` 0 it syncs before acknowledging
   * acks=-1 produces and offset commits; otherwise it acknowledges once written and `flushSoon()`
   * has the data flushed within the interval (and at segment roll, and at close).
   */
  fsync: boolean;
  flushIntervalMs: number;
  /** Appends or commits were written: flush them within the interval (no timer runs when nothing waits). */
  flushSoon(): void;
  logger: Logger;
  stats: BrokerStats;
  closed: boolean;
  /** SASL/PLAIN users and their ACLs; null when SASL is off (every client may do everything). */
  acl: Authorizer | null;
}

export interface RequestHeader {
  apiKey: number;
  apiVersion: number;
  correlationId: number;
  clientId: string | null;
  /** Address of the peer, for DescribeGroups. */
  clientHost: string;
  /** The connection's authentication state, shared by all its requests. */
  session: Session;
}

/**
 * SASL progress of one connection. With SASL off it stays at `start` with no principal and every
 * request is served. With it on, only ApiVersions and SaslHandshake are served at `start`; a v0
 * handshake expects the next frame to be a bare PLAIN token (`raw`), a v1 handshake a
 * SaslAuthenticate request (`authenticate`); `done` has the principal.
 */
export interface Session {
  state: 'start' | 'raw' | 'authenticate' | 'done';
  principal: string | null;
  /** Set by a handler whose answer must be the connection's last (refused authentication). */
  closeAfterReply: boolean;
}
