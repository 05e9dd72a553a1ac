// A stream value: entries in ID order (append-only here: no XDEL), consumer groups with their
// last delivered ID, pending entries list (PEL) and consumers. IDs are two unsigned 64-bit
// numbers, kept as bigints so every ID Redis accepts compares exactly.

export interface StreamId {
  ms: bigint;
  seq: bigint;
}

export interface StreamEntry {
  id: StreamId;
  fields: string[];
}

export interface PendingEntry {
  id: StreamId;
  consumer: string;
  deliveredAt: number;
  count: number;
}

export interface ConsumerGroup {
  lastDelivered: StreamId;
  /** Keyed by formatted ID; kept in ID order by sorting on read (PELs are small). */
  pel: Map<string, PendingEntry>;
  consumers: Map<string, { seenAt: number }>;
}

export const U64_MAX = 18446744073709551615n;

export class Stream {
  entries: StreamEntry[] = [];
  lastId: StreamId = { ms: 0n, seq: 0n };
  groups = new Map<string, ConsumerGroup>();

  get length(): number {
    return this.entries.length;
  }

  /** Index of the first entry with id >= (or > when exclusive) the given one. */
  lowerBound(id: StreamId, exclusive = false): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = cmpId(this.entries[mid]!.id, id);
      if (c < 0 || (exclusive && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Entries with start <= id <= end, at most count (undefined = all). */
  range(start: StreamId, end: StreamId, count?: number): StreamEntry[] {
    const out: StreamEntry[] = [];
    for (let i = this.lowerBound(start); i < this.entries.length; i++) {
      const e = this.entries[i]!;
      if (cmpId(e.id, end) > 0 || (count !== undefined && out.length >= count)) break;
      out.push(e);
    }
    return out;
  }

  find(id: StreamId): StreamEntry | undefined {
    const i = this.lowerBound(id);
    const e = this.entries[i];
    return e !== undefined && cmpId(e.id, id) === 0 ? e : undefined;
  }
}

export function cmpId(a: StreamId, b: StreamId): number {
  if (a.ms !== b.ms) return a.ms < b.ms ? -1 : 1;
  if (a.seq !== b.seq) return a.seq < b.seq ? -1 : 1;
  return 0;
}

export function fmtId(id: StreamId): string {
  return `${id.ms}-${id.seq}`;
}

const U64 = /^\d{1,20}$/;

function u64(s: string): bigint | undefined {
  if (!U64.test(s)) return undefined;
  const n = BigInt(s);
  return n <= U64_MAX ? n : undefined;
}

/**
 * Parses "ms-seq" or "ms" (seq = missingSeq). Returns undefined when invalid. `seqStar` allows
 * "ms-*" (XADD), reported as seq = -1n.
 */
export function parseId(s: string, missingSeq: bigint, seqStar = false): StreamId | undefined {
  const dash = s.indexOf('-');
  if (dash < 0) {
    const ms = u64(s);
    return ms === undefined ? undefined : { ms, seq: missingSeq };
  }
  const ms = u64(s.slice(0, dash));
  const rest = s.slice(dash + 1);
  if (ms === undefined) return undefined;
  if (seqStar && rest === '*') return { ms, seq: -1n };
  const seq = u64(rest);
  return seq === undefined ? undefined : { ms, seq };
}
