import net from 'node:net';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import { AppendNotifier } from './append-notifier.ts';
import { Authorizer, type SaslOptions } from './auth/acl.ts';
import type { BrokerContext } from './broker-context.ts';
import { BrokerMeta } from './broker-meta.ts';
import { serveConnection } from './connection.ts';
import { acquireDataDir } from './data-dir.ts';
import { EmbeddedKafkaError } from './errors.ts';
import { GroupCoordinator } from './groups/coordinator.ts';
import { OffsetStore } from './groups/offset-store.ts';
import { TopicStore } from './log/topic-store.ts';
import { API_NAMES } from './protocol/api-keys.ts';
import { BrokerStats } from './stats.ts';

export interface EmbeddedKafkaOptions {
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** Default 9092; 0 picks a free port. */
  port?: number;
  dataDir: string;
  /** Host clients are told to connect to (Metadata, FindCoordinator). Default: host, or 127.0.0.1 when host is a wildcard. */
  advertisedHost?: string;
  /** Default: the bound port. */
  advertisedPort?: number;
  /** Create unknown topics when a client asks for their metadata. Default true. */
  autoCreateTopics?: boolean;
  /** Partitions of auto-created topics and of CreateTopics with num_partitions -1. Default 1. */
  defaultPartitions?: number;
  /** Per partition; -1 = unlimited. Default 1 GiB. */
  retentionBytes?: number;
  /** -1 = unlimited. Default 7 days. */
  retentionMs?: number;
  /** Log segment size; retention deletes whole segments. Default 64 MiB. */
  segmentBytes?: number;
  /** How often age/size retention runs besides on every segment roll. Default 60 s. */
  retentionCheckIntervalMs?: number;
  /** fdatasync at all (interval flush, roll, close; or per acknowledgement, see flushIntervalMs). Default true. */
  fsync?: boolean;
  /**
   * How long written data may wait for fdatasync: produces and offset commits are acknowledged once
   * written to the OS (a killed broker loses nothing) and flushed within this time, and at segment
   * roll. 0: acks=-1 produces and offset commits wait for their own fdatasync (group commit), so
   * they also survive a machine crash. Default 1000 ms.
   */
  flushIntervalMs?: number;
  /**
   * SASL/PLAIN with per-principal ACLs. When set, a connection must authenticate before anything
   * but ApiVersions and SaslHandshake, and each request is authorized as Kafka's ACL authorizer
   * would. Unset (the default): no authentication, everything allowed.
   */
  sasl?: SaslOptions;
  logger?: Logger;
}

export interface EmbeddedKafka {
  /** The advertised host: what clients should connect to. */
  host: string;
  port: number;
  /** "host:port", ready for KAFKA_BROKERS or kafkajs `brokers: [..]`. */
  brokers: string;
  url: string;
  dataDir: string;
  close(): Promise<void>;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

function listen(server: net.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new EmbeddedKafkaError('PORT_IN_USE', `port ${port} on ${host} is already in use`));
      else if (err.code === 'EACCES') reject(new EmbeddedKafkaError('BAD_PORT', `no permission to listen on port ${port}`));
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') reject(new EmbeddedKafkaError('BAD_HOST', `cannot listen on host ${host}: ${err.code}`));
      else reject(err);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

export async function startEmbeddedKafka(options: EmbeddedKafkaOptions): Promise<EmbeddedKafka> {
  const host = options.host ?? '127.0.0.1';
  const requestedPort = options.port ?? 9092;
  if (!Number.isInteger(requestedPort) || requestedPort < 0 || requestedPort > 65535) {
    throw new EmbeddedKafkaError('BAD_PORT', `invalid port ${String(options.port)}: expected an integer 0..65535`);
  }
  const flushIntervalMs = options.flushIntervalMs ?? 1000;
  if (!Number.isInteger(flushIntervalMs) || flushIntervalMs < 0) {
    throw new EmbeddedKafkaError('BAD_OPTION', `invalid flushIntervalMs ${String(options.flushIntervalMs)}: expected an integer >= 0`);
  }
  const defaultPartitions = options.defaultPartitions ?? 1;
  if (!Number.isInteger(defaultPartitions) || defaultPartitions < 1) {
    throw new EmbeddedKafkaError('BAD_OPTION', `invalid defaultPartitions ${defaultPartitions}`);
  }
  // Checked before the data dir is taken, so a bad user list leaves nothing behind.
  const acl = options.sasl ? new Authorizer(options.sasl) : null;
  const logger = options.logger ?? pino({ name: 'embedded-kafka' });
  const dataDir = path.resolve(options.dataDir);
  const release = acquireDataDir(dataDir);

  let topics: TopicStore | undefined;
  let offsets: OffsetStore | undefined;
  let groups: GroupCoordinator | undefined;
  const server = net.createServer();
  const stats = new BrokerStats();
  try {
    const logConfig = {
      fsyncStats: stats.fsync,
      segmentBytes: options.segmentBytes ?? 64 * 1024 * 1024,
      retentionBytes: options.retentionBytes ?? 1024 * 1024 * 1024,
      retentionMs: options.retentionMs ?? 7 * 24 * 3600_000,
    };
    topics = new TopicStore(dataDir, logConfig, logger);
    offsets = new OffsetStore(dataDir, logger, stats.fsync);
    const liveTopics = topics;
    const clamped = offsets.clampTo((t, p) => liveTopics.get(t, p)?.highWatermark);
    if (clamped > 0) logger.warn({ offsets: clamped }, 'committed offsets past their log end moved back to it (unflushed tail lost)');
    groups = new GroupCoordinator(logger);
    const meta = new BrokerMeta(dataDir);
    const port = await listen(server, host, requestedPort);
    const advertisedHost = options.advertisedHost ?? (WILDCARDS.has(host) ? '127.0.0.1' : host);
    let flushTimer: NodeJS.Timeout | undefined;
    const flush = (): void => {
      flushTimer = undefined;
      const started = performance.now();
      try {
        // Logs first, then offsets, in one synchronous step: a commit synced here is for records
        // appended before it, which the log flush has just synced.
        ctx.topics.flush();
        ctx.offsets.flush();
      } catch (err) {
        logger.error({ err }, 'interval flush failed');
      } finally {
        stats.fsync.record(performance.now() - started);
      }
    };
    const ctx: BrokerContext = {
      nodeId: 0,
      advertisedHost,
      advertisedPort: options.advertisedPort ?? port,
      topics,
      offsets,
      groups,
      appends: new AppendNotifier(),
      meta,
      autoCreateTopics: options.autoCreateTopics ?? true,
      defaultPartitions,
      log: { retentionMs: logConfig.retentionMs, retentionBytes: logConfig.retentionBytes, segmentBytes: logConfig.segmentBytes },
      fsync: options.fsync ?? true,
      flushIntervalMs,
      flushSoon: () => {
        if (flushTimer || !ctx.fsync || flushIntervalMs === 0 || ctx.closed) return;
        flushTimer = setTimeout(flush, flushIntervalMs);
      },
      logger,
      stats,
      closed: false,
      acl,
    };
    const sockets = new Set<net.Socket>();
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      serveConnection(ctx, socket);
    });
    const retentionTimer = setInterval(() => {
      try {
        ctx.topics.applyRetention(Date.now());
      } catch (err) {
        logger.error({ err }, 'retention failed');
      }
    }, options.retentionCheckIntervalMs ?? 60_000);
    retentionTimer.unref();
    ctx.topics.applyRetention(Date.now());
    const security = acl ? { sasl: 'PLAIN', users: Object.keys(options.sasl?.users ?? {}).length } : { sasl: 'off' };
    logger.info({ host, port, advertisedHost: ctx.advertisedHost, advertisedPort: ctx.advertisedPort, dataDir, topics: ctx.topics.names().length, ...security }, 'listening');

    let closing: Promise<void> | null = null;
    const close = (): Promise<void> => {
      closing ??= (async () => {
        ctx.closed = true;
        clearInterval(retentionTimer);
        clearTimeout(flushTimer);
        const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
        ctx.appends.wakeAll();
        for (const s of sockets) s.destroy();
        await serverClosed;
        ctx.groups.close();
        ctx.topics.close();
        ctx.offsets.close();
        release();
        logger.info(stats.summary(API_NAMES), 'request stats');
        logger.info({ port }, 'closed');
      })();
      return closing;
    };
    const shown = advertisedHost.includes(':') ? `[${advertisedHost}]` : advertisedHost;
    const brokers = `${shown}:${ctx.advertisedPort}`;
    return { host: advertisedHost, port, brokers, url: `kafka://${brokers}`, dataDir, close };
  } catch (err) {
    server.close();
    groups?.close();
    topics?.close();
    offsets?.close();
    release();
    throw err;
  }
}
