import { ErrorCode } from '../protocol/error-codes.ts';
import { Writer } from '../protocol/writer.ts';
import type { BrokerContext } from '../broker-context.ts';
import type { Handler } from './handler.ts';

interface PartitionRequest {
  partition: number;
  fetchOffset: number;
  maxBytes: number;
}

interface PartitionData {
  partition: number;
  error: number;
  highWatermark: number;
  chunks: Buffer[];
}

const MAX_WAIT_CAP_MS = 60_000;

function readAll(ctx: BrokerContext, topics: { topic: string; partitions: PartitionRequest[] }[], maxBytes: number) {
  let total = 0;
  const out = topics.map((t) => ({
    topic: t.topic,
    partitions: t.partitions.map((p): PartitionData => {
      const log = ctx.topics.get(t.topic, p.partition);
      if (!log) return { partition: p.partition, error: ErrorCode.UnknownTopicOrPartition, highWatermark: -1, chunks: [] };
      // The first partition with data always returns a whole batch, even past max_bytes.
      const budget = Math.max(0, Math.min(p.maxBytes, maxBytes - total));
      if (budget === 0 && total > 0) return { partition: p.partition, error: ErrorCode.None, highWatermark: log.highWatermark, chunks: [] };
      const res = log.read(p.fetchOffset, Math.max(budget, 1));
      if (res.error !== ErrorCode.None) return { partition: p.partition, error: res.error, highWatermark: log.highWatermark, chunks: [] };
      total += res.bytes;
      return { partition: p.partition, error: ErrorCode.None, highWatermark: log.highWatermark, chunks: res.chunks };
    }),
  }));
  const hasError = out.some((t) => t.partitions.some((p) => p.error !== ErrorCode.None));
  return { out, total, hasError };
}

/** Long-polls until min_bytes are available, an error must be reported, or max_wait passes. */
export const fetch: Handler = async (ctx, { apiVersion: v }, r) => {
  r.int32(); // replica_id
  const maxWaitMs = Math.min(Math.max(r.int32(), 0), MAX_WAIT_CAP_MS);
  const minBytes = r.int32();
  const maxBytes = v >= 3 ? r.int32() : 0x7fffffff;
  if (v >= 4) r.int8(); // isolation_level: there are no transactions, so both levels read the same
  const topics = r.array((r) => ({
    topic: r.string(),
    partitions: r.array((r): PartitionRequest => ({ partition: r.int32(), fetchOffset: r.int64(), maxBytes: r.int32() })),
  }));

  let result = readAll(ctx, topics, maxBytes);
  if (result.total < minBytes && !result.hasError && maxWaitMs > 0 && !ctx.closed) {
    const keys = topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.topic, partition: p.partition })));
    // Errors while re-reading are this fetch's own: they reject its promise (closing its connection),
    // never the producer whose append woke it.
    await new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined = undefined;
      const done = (err?: unknown) => {
        clearTimeout(timer);
        unlisten();
        if (err === undefined) resolve();
        else reject(err instanceof Error ? err : new Error(String(err)));
      };
      const reread = (final: boolean) => {
        try {
          result = readAll(ctx, topics, maxBytes);
        } catch (err) {
          return done(err);
        }
        if (final || result.total >= minBytes || result.hasError) done();
      };
      const unlisten = ctx.appends.listen(keys, () => (ctx.closed ? done() : reread(false)));
      timer = setTimeout(() => reread(true), maxWaitMs);
    });
  }

  const w = new Writer();
  if (v >= 1) w.int32(0);
  w.array(result.out, (w, t) => {
    w.string(t.topic);
    w.array(t.partitions, (w, p) => {
      w.int32(p.partition).int16(p.error).int64(p.highWatermark);
      if (v >= 4) {
        w.int64(p.highWatermark); // last_stable_offset
        w.int32(0); // aborted_transactions
      }
      w.bytesChunks(p.chunks);
    });
  });
  return w;
};
