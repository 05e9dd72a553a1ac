import { crc32c } from './crc32c.ts';

/**
 * RecordBatch v2 header layout. The broker treats a batch as opaque bytes: it reads these
 * fields and rewrites only baseOffset, which lies outside the CRC, so any compression
 * codec passes through untouched.
 */
export const BATCH_OVERHEAD = 12; // baseOffset(8) + batchLength(4)
export const BATCH_HEADER_SIZE = 61;
const MAGIC_AT = 16;
const CRC_AT = 17;
const ATTRIBUTES_AT = 21;
const LAST_OFFSET_DELTA_AT = 23;
const MAX_TIMESTAMP_AT = 35;
const PRODUCER_ID_AT = 43;
const PRODUCER_EPOCH_AT = 51;
const BASE_SEQUENCE_AT = 53;
const TRANSACTIONAL_FLAG = 0x10;
const COMPRESSION_MASK = 0x07;
/** Codec number of zstd in the batch attributes (0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd). */
export const ZSTD = 4;

export interface BatchInfo {
  /** Position of the batch inside the buffer it was parsed from. */
  start: number;
  size: number;
  lastOffsetDelta: number;
  maxTimestamp: number;
  producerId: number;
  producerEpoch: number;
  baseSequence: number;
  transactional: boolean;
  compression: number;
}

/** The batches that parsed, and why parsing stopped early (error is null when all bytes parsed). */
export interface ParseResult {
  batches: BatchInfo[];
  error: string | null;
  validBytes: number;
}

export function readBatchInfo(buf: Buffer, start: number): BatchInfo {
  const size = BATCH_OVERHEAD + buf.readInt32BE(start + 8);
  return {
    start,
    size,
    lastOffsetDelta: buf.readInt32BE(start + LAST_OFFSET_DELTA_AT),
    maxTimestamp: Number(buf.readBigInt64BE(start + MAX_TIMESTAMP_AT)),
    producerId: Number(buf.readBigInt64BE(start + PRODUCER_ID_AT)),
    producerEpoch: buf.readInt16BE(start + PRODUCER_EPOCH_AT),
    baseSequence: buf.readInt32BE(start + BASE_SEQUENCE_AT),
    transactional: (buf.readInt16BE(start + ATTRIBUTES_AT) & TRANSACTIONAL_FLAG) !== 0,
    compression: buf.readInt16BE(start + ATTRIBUTES_AT) & COMPRESSION_MASK,
  };
}

/**
 * Checks the header of the batch at `pos`: `buf` must hold at least its 61 header bytes, and
 * `bytesFromPos` says how many bytes of the containing file or field follow `pos`.
 * Returns the batch or why it is not a complete magic-2 batch.
 */
export function checkBatchHeader(buf: Buffer, pos: number, bytesFromPos: number): BatchInfo | string {
  if (bytesFromPos < BATCH_HEADER_SIZE || buf.length - pos < BATCH_HEADER_SIZE) return 'truncated batch header';
  const batchLength = buf.readInt32BE(pos + 8);
  if (batchLength < BATCH_HEADER_SIZE - BATCH_OVERHEAD) return 'bad batch length';
  if (BATCH_OVERHEAD + batchLength > bytesFromPos) return 'truncated batch';
  const magic = buf.readInt8(pos + MAGIC_AT);
  if (magic !== 2) return `unsupported magic ${magic}`;
  const info = readBatchInfo(buf, pos);
  if (info.lastOffsetDelta < 0) return 'bad lastOffsetDelta';
  return info;
}

/** `buf` holds one whole batch starting at `start`. */
export function batchCrcMatches(buf: Buffer, start: number, size: number): boolean {
  return crc32c(buf, start + ATTRIBUTES_AT, start + size) === buf.readUInt32BE(start + CRC_AT);
}

/**
 * Splits a records field into batches. Stops at the first batch that is not a complete magic-2
 * batch and reports how many bytes were valid before it.
 */
export function parseBatches(buf: Buffer): ParseResult {
  const batches: BatchInfo[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const info = checkBatchHeader(buf, pos, buf.length - pos);
    if (typeof info === 'string') return { batches, error: info, validBytes: pos };
    batches.push(info);
    pos += info.size;
  }
  return { batches, error: null, validBytes: pos };
}

export function setBaseOffset(buf: Buffer, start: number, baseOffset: number): void {
  buf.writeBigInt64BE(BigInt(baseOffset), start);
}

export function readBaseOffset(buf: Buffer, start: number): number {
  return Number(buf.readBigInt64BE(start));
}
