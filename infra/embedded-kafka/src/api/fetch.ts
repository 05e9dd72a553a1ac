import { ErrorCode } from '../protocol/error-codes.ts';
import { Writer } from '../protocol/writer.ts';
import type { BrokerContext } from '../broker-context.ts';
import type { Handler } from './handler.ts';
import { mayTopic } from './authz.ts';
import { parseBatches, ZSTD } from '../log/record-batch.ts';

interface PartitionRequest {
  partition: number;
  leaderEpoch: number;
  fetchOffset: number;
  maxBytes: number;
}

interface PartitionData {
  partition: number;
  error: number;
  highWatermark: number;
  logStartOffset: number;
  chunks: Buffer[];
}

/** The leader epoch of every partition: one broker that never loses leadership. */
const LEADER_EPOCH = 0;
/** The session id that means "no fetch session" (KIP-227); this broker never creates sessions. */
const NO_SESSION = 0;
const FINAL_EPOCH = -1;
const INITIAL_EPOCH = 0;

/** As Kafka: a consumer older than Fetch v10 gets an error for zstd batches, not bytes it cannot read. */
function hasZstd(chunks: Buffer[]): boolean {
  return chunks.some((c) => parseBatches(c).batches.some((b) => b.compression === ZSTD));
}

const MAX_WAIT_CAP_MS = 60_000;

type FetchTopic = { topic: string; partitions: PartitionRequest[] };

/**
 * What the fetch answers, partition by partition. With `data` false only the sizes are worked out
 * (from the log's index, no file read): a long-polling fetch re-measures on every append that wakes
 * it and reads once it has min_bytes — re-reading every partition at every append cost one pread per
 * partition per waiting consumer, and the bytes gathered so far again each time.
 */
function collect(ctx: BrokerContext, topics: FetchTopic[], maxBytes: number, v: number, data: boolean, refused: ReadonlySet<string>) {
  let total = 0;
  const out = topics.map((t) => ({
    topic: t.topic,
    partitions: t.partitions.map((p): PartitionData => {
      if (refused.has(t.topic)) return { partition: p.partition, error: ErrorCode.TopicAuthorizationFailed, highWatermark: -1, logStartOffset: -1, chunks: [] };
      const log = ctx.topics.get(t.topic, p.partition);
      if (!log) return { partition: p.partition, error: ErrorCode.UnknownTopicOrPartition, highWatermark: -1, logStartOffset: -1, chunks: [] };
      const none = { partition: p.partition, highWatermark: log.highWatermark, logStartOffset: log.logStartOffset, chunks: [] };
      if (p.leaderEpoch > LEADER_EPOCH) return { ...none, error: ErrorCode.UnknownLeaderEpoch };
      if (p.leaderEpoch >= 0 && p.leaderEpoch < LEADER_EPOCH) return { ...none, error: ErrorCode.FencedLeaderEpoch };
      // The first partition with data always returns a whole batch, even past max_bytes.
      const budget = Math.max(0, Math.min(p.maxBytes, maxBytes - total));
      if (budget === 0 && total > 0) return { ...none, error: ErrorCode.None };
      if (!data) {
        const size = log.available(p.fetchOffset, Math.max(budget, 1));
        if (size.error !== ErrorCode.None) return { ...none, error: size.error };
        total += size.bytes;
        return { ...none, error: ErrorCode.None };
      }
      const res = log.read(p.fetchOffset, Math.max(budget, 1));
      if (res.error !== ErrorCode.None) return { ...none, error: res.error };
      if (v < 10 && hasZstd(res.chunks)) return { ...none, error: ErrorCode.UnsupportedCompressionType };
      total += res.bytes;
      return { ...none, error: ErrorCode.None, chunks: res.chunks };
    }),
  }));
  const hasError = out.some((t) => t.partitions.some((p) => p.error !== ErrorCode.None));
  return { out, total, hasError };
}

/** Long-polls until min_bytes are available, an error must be reported, or max_wait passes. */
export const fetch: Handler = async (ctx, h, r) => {
  const v = h.apiVersion;
  r.int32(); // replica_id
  const maxWaitMs = Math.min(Math.max(r.int32(), 0), MAX_WAIT_CAP_MS);
  const minBytes = r.int32();
  const maxBytes = v >= 3 ? r.int32() : 0x7fffffff;
  if (v >= 4) r.int8(); // isolation_level: there are no transactions, so both levels read the same
  const sessionId = v >= 7 ? r.int32() : NO_SESSION;
  const sessionEpoch = v >= 7 ? r.int32() : FINAL_EPOCH;
  const topics = r.array((r) => ({
    topic: r.string(),
    partitions: r.array((r): PartitionRequest => {
      const partition = r.int32();
      const leaderEpoch = v >= 9 ? r.int32() : -1;
      const fetchOffset = r.int64();
      if (v >= 5) r.int64(); // log_start_offset: only followers send one
      return { partition, leaderEpoch, fetchOffset, maxBytes: r.int32() };
    }),
  }));
  if (v >= 7) r.array((r) => ({ topic: r.string(), partitions: r.array((r) => r.int32()) })); // forgotten topics: no sessions
  if (v >= 11) r.string(); // rack_id: one broker, no follower fetching

  // No session is ever created (answers carry session id 0, which KIP-227 clients read as "send
  // full fetches"), so an incremental fetch names a session this broker does not know.
  if (sessionId !== NO_SESSION || (sessionEpoch !== INITIAL_EPOCH && sessionEpoch !== FINAL_EPOCH)) {
    const error = sessionId !== NO_SESSION ? ErrorCode.FetchSessionIdNotFound : ErrorCode.InvalidFetchSessionEpoch;
    return new Writer().int32(0).int16(error).int32(NO_SESSION).int32(0);
  }

  // Unreadable topics are answered TOPIC_AUTHORIZATION_FAILED per partition, as Kafka does.
  const refused = new Set(topics.filter((t) => !mayTopic(ctx, h, 'read', t.topic)).map((t) => t.topic));
  let ready = collect(ctx, topics, maxBytes, v, false, refused);
  if (ready.total < minBytes && !ready.hasError && maxWaitMs > 0 && !ctx.closed) {
    const keys = topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.topic, partition: p.partition })));
    // Errors while measuring are this fetch's own: they reject its promise (closing its connection),
    // never the producer whose append woke it.
    await new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined = undefined;
      const done = (err?: unknown) => {
        clearTimeout(timer);
        unlisten();
        if (err === undefined) resolve();
        else reject(err instanceof Error ? err : new Error(String(err)));
      };
      const remeasure = () => {
        try {
          ready = collect(ctx, topics, maxBytes, v, false, refused);
        } catch (err) {
          return done(err);
        }
        if (ready.total >= minBytes || ready.hasError) done();
      };
      const unlisten = ctx.appends.listen(keys, () => (ctx.closed ? done() : remeasure()));
      timer = setTimeout(() => done(), maxWaitMs);
    });
  }
  // A broker that is stopping answers what it measured, without data: its logs may be closing.
  const result = ctx.closed ? ready : collect(ctx, topics, maxBytes, v, true, refused);

  const w = new Writer();
  if (v >= 1) w.int32(0);
  if (v >= 7) w.int16(ErrorCode.None).int32(NO_SESSION);
  w.array(result.out, (w, t) => {
    w.string(t.topic);
    w.array(t.partitions, (w, p) => {
      w.int32(p.partition).int16(p.error).int64(p.highWatermark);
      if (v >= 4) w.int64(p.highWatermark); // last_stable_offset: no transactions
      if (v >= 5) w.int64(p.logStartOffset);
      if (v >= 4) w.int32(0); // aborted_transactions
      if (v >= 11) w.int32(-1); // preferred_read_replica: none
      w.bytesChunks(p.chunks);
    });
  });
  return w;
};
