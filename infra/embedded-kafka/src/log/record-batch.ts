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
  };
}

/**
 * Splits a records field (or a log segment) into batches. Stops at the first batch that is
 * not a complete magic-2 batch and reports how many bytes were valid before it.
 */
export function parseBatches(buf: Buffer, opts: { checkCrc: 'all' | 'last' | 'none' } = { checkCrc: 'none' }): ParseResult {
  const batches: BatchInfo[] = [];
  let pos = 0;
  while (pos < buf.length) {
    if (buf.length - pos < BATCH_HEADER_SIZE) return { batches, error: 'truncated batch header', validBytes: pos };
    const batchLength = buf.readInt32BE(pos + 8);
    if (batchLength < BATCH_HEADER_SIZE - BATCH_OVERHEAD) return { batches, error: 'bad batch length', validBytes: pos };
    if (pos + BATCH_OVERHEAD + batchLength > buf.length) return { batches, error: 'truncated batch', validBytes: pos };
    const magic = buf.readInt8(pos + MAGIC_AT);
    if (magic !== 2) return { batches, error: `unsupported magic ${magic}`, validBytes: pos };
    const info = readBatchInfo(buf, pos);
    if (info.lastOffsetDelta < 0) return { batches, error: 'bad lastOffsetDelta', validBytes: pos };
    const isLast = pos + info.size === buf.length;
    if (opts.checkCrc === 'all' || (opts.checkCrc === 'last' && isLast)) {
      const stored = buf.readUInt32BE(pos + CRC_AT);
      if (crc32c(buf, pos + ATTRIBUTES_AT, pos + info.size) !== stored) {
        return { batches, error: 'crc mismatch', validBytes: pos };
      }
    }
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
