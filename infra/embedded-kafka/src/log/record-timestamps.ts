import zlib from 'node:zlib';

const FIRST_TIMESTAMP_AT = 27;
const RECORDS_AT = 61;
const ATTRIBUTES_AT = 21;
const CODEC_NONE = 0;
const CODEC_GZIP = 1;

/** Zigzag varint (Kafka record fields); plain arithmetic so 64-bit timestamp deltas stay exact. */
function readVarint(buf: Buffer, pos: number): { value: number; next: number } {
  let raw = 0;
  let scale = 1;
  let at = pos;
  for (;;) {
    if (at >= buf.length) throw new RangeError('truncated varint');
    const b = buf[at] as number;
    at++;
    raw += (b & 0x7f) * scale;
    if ((b & 0x80) === 0) break;
    scale *= 128;
  }
  const value = raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
  return { value, next: at };
}

/**
 * The first record of a whole batch whose timestamp is >= ts, as Kafka answers ListOffsets by
 * timestamp. Reads uncompressed and gzip batches; null for the codecs Node cannot decompress
 * (snappy, lz4, zstd) or when no record qualifies, so the caller falls back to the batch.
 */
export function firstRecordAtOrAfter(batch: Buffer, ts: number): { offsetDelta: number; timestamp: number } | null {
  const codec = batch.readInt16BE(ATTRIBUTES_AT) & 0x07;
  if (codec !== CODEC_NONE && codec !== CODEC_GZIP) return null;
  const firstTimestamp = Number(batch.readBigInt64BE(FIRST_TIMESTAMP_AT));
  try {
    const records = codec === CODEC_GZIP ? zlib.gunzipSync(batch.subarray(RECORDS_AT)) : batch.subarray(RECORDS_AT);
    let pos = 0;
    while (pos < records.length) {
      const length = readVarint(records, pos);
      const bodyAt = length.next;
      const timestampDelta = readVarint(records, bodyAt + 1); // after the attributes byte
      const offsetDelta = readVarint(records, timestampDelta.next);
      const timestamp = firstTimestamp + timestampDelta.value;
      if (timestamp >= ts) return { offsetDelta: offsetDelta.value, timestamp };
      pos = bodyAt + length.value;
    }
  } catch {
    return null; // not decodable: the batch-level answer is the best available
  }
  return null;
}
