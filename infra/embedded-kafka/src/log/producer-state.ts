import { ErrorCode, type ErrorCodeValue } from '../protocol/error-codes.ts';
import type { BatchInfo } from './record-batch.ts';
import type { BatchEntry } from './segment.ts';

interface ProducerState {
  epoch: number;
  firstSeq: number;
  lastSeq: number;
  baseOffset: number;
}

export type SequenceCheck =
  | { kind: 'append' }
  | { kind: 'duplicate'; baseOffset: number }
  | { kind: 'error'; error: Exclude<ErrorCodeValue, 0> };

const SEQ_WRAP = 2 ** 31;

/**
 * Last batch seen per idempotent producer on one partition. Rebuilt from batch headers on start,
 * so a retry of an acknowledged batch after a broker restart is still recognised as a duplicate.
 */
export class ProducerStateTable {
  private readonly byId = new Map<number, ProducerState>();

  observe(e: BatchEntry): void {
    if (e.producerId < 0 || e.baseSequence < 0) return;
    this.byId.set(e.producerId, {
      epoch: e.producerEpoch,
      firstSeq: e.baseSequence,
      lastSeq: (e.baseSequence + (e.last - e.base)) % SEQ_WRAP,
      baseOffset: e.base,
    });
  }

  check(producerId: number, epoch: number, baseSequence: number, batches: BatchInfo[]): SequenceCheck {
    const st = this.byId.get(producerId);
    if (!st || baseSequence < 0) return { kind: 'append' };
    if (epoch < st.epoch) return { kind: 'error', error: ErrorCode.InvalidProducerEpoch };
    if (epoch > st.epoch) return { kind: 'append' };
    const last = batches[batches.length - 1] as BatchInfo;
    const lastSeq = (last.baseSequence + last.lastOffsetDelta) % SEQ_WRAP;
    if (baseSequence === st.firstSeq && lastSeq === st.lastSeq) return { kind: 'duplicate', baseOffset: st.baseOffset };
    if (baseSequence === (st.lastSeq + 1) % SEQ_WRAP) return { kind: 'append' };
    // Older than the last batch: an earlier retry that was already written.
    if (baseSequence <= st.lastSeq && st.lastSeq - baseSequence < SEQ_WRAP / 2) return { kind: 'error', error: ErrorCode.DuplicateSequenceNumber };
    return { kind: 'error', error: ErrorCode.OutOfOrderSequenceNumber };
  }
}
