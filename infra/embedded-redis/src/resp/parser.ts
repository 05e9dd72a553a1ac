// Request parser: RESP multibulk (what clients send) and inline commands (telnet / redis-cli
// style). Arguments are decoded as latin1 so each JS char is exactly one byte: binary-safe and
// cheap to re-encode on the way out.

export class ProtocolError extends Error {}

const CR = 13;
const LF = 10;
const MAX_INLINE = 64 * 1024;
const MAX_MULTIBULK = 1024 * 1024;
const MAX_BULK = 512 * 1024 * 1024;
/** Chunks up to this size are decoded to one string per feed (a socket read is at most 64 KiB). */
const TEXT_MAX = 64 * 1024;

export class RequestParser {
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  /** Chunks received while waiting for a big bulk argument, joined only once it is complete. */
  private waiting: Buffer[] = [];
  private waitingLen = 0;
  /** Bytes the buffered request needs before parsing can make progress (0 = unknown). */
  private needed = 0;
  /** The current buffer decoded once as latin1 (offsets match bytes), when it is small enough. */
  private text: string | undefined;

  /** Appends bytes; pushes the complete requests found so far to `out`, in order. Throws ProtocolError. */
  feed(chunk: Buffer, out: string[][]): void {
    if (this.needed > 0) {
      // A large value arriving in many packets: avoid re-copying the prefix on every packet.
      this.waiting.push(chunk);
      this.waitingLen += chunk.length;
      if (this.buf.length - this.pos + this.waitingLen < this.needed) return;
      this.buf = Buffer.concat([this.buf.subarray(this.pos), ...this.waiting]);
      this.waiting = [];
      this.waitingLen = 0;
    } else if (this.pos < this.buf.length) {
      this.buf = Buffer.concat([this.buf.subarray(this.pos), chunk]);
    } else {
      this.buf = chunk;
    }
    this.needed = 0;
    this.pos = 0;
    const buf = this.buf;
    const len = buf.length;
    this.text = len <= TEXT_MAX ? latin1(buf, 0, len) : undefined;
    while (this.pos < len) {
      const start = this.pos;
      const req = buf[start] === 42 /* '*' */ ? this.parseMultibulk(buf, start) : this.parseInline(buf, start);
      if (req === undefined) {
        this.pos = start;
        if (this.needed > 0) this.needed -= start;
        break;
      }
      if (req.length > 0) out.push(req);
    }
    if (this.pos >= len) {
      this.buf = Buffer.alloc(0);
      this.pos = 0;
    }
  }

  private parseInline(buf: Buffer, start: number): string[] | undefined {
    const nl = buf.indexOf(LF, start);
    if (nl === -1) {
      if (buf.length - start > MAX_INLINE) throw new ProtocolError('ERR Protocol error: too big inline request');
      return undefined;
    }
    let end = nl;
    if (end > start && buf[end - 1] === CR) end--;
    this.pos = nl + 1;
    return splitInline(buf.toString('latin1', start, end));
  }

  private parseMultibulk(buf: Buffer, start: number): string[] | undefined {
    const len = buf.length;
    let p = start + 1;
    // multibulk count
    let n = 0;
    let neg = false;
    if (buf[p] === 45) {
      neg = true;
      p++;
    }
    const countStart = p;
    while (p < len && buf[p] !== CR) {
      const c = buf[p]! - 48;
      if (c < 0 || c > 9) throw new ProtocolError('ERR Protocol error: invalid multibulk length');
      n = n * 10 + c;
      p++;
    }
    if (p + 1 >= len) {
      if (len - start > MAX_INLINE) throw new ProtocolError('ERR Protocol error: too big mbulk count string');
      return undefined;
    }
    if (p === countStart || buf[p + 1] !== LF) throw new ProtocolError('ERR Protocol error: invalid multibulk length');
    if (n > MAX_MULTIBULK) throw new ProtocolError('ERR Protocol error: invalid multibulk length');
    p += 2;
    if (neg || n === 0) {
      this.pos = p;
      return [];
    }
    const args: string[] = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      if (p >= len) return undefined;
      if (buf[p] !== 36 /* '$' */) {
        throw new ProtocolError(`ERR Protocol error: expected '$', got '${String.fromCharCode(buf[p]!)}'`);
      }
      p++;
      let bl = 0;
      const blStart = p;
      while (p < len && buf[p] !== CR) {
        const c = buf[p]! - 48;
        if (c < 0 || c > 9) throw new ProtocolError('ERR Protocol error: invalid bulk length');
        bl = bl * 10 + c;
        p++;
      }
      if (p + 1 >= len) return undefined;
      if (p === blStart || buf[p + 1] !== LF || bl > MAX_BULK) {
        throw new ProtocolError('ERR Protocol error: invalid bulk length');
      }
      p += 2;
      if (p + bl + 2 > len) {
        // Remember how far we must get (absolute in buf) so feed() can skip re-parsing until then.
        if (bl >= 65536) this.needed = p + bl + 2;
        return undefined;
      }
      // Short arguments (command names, small values) are cut from a per-chunk latin1 string:
      // V8 copies slices under 13 chars, so nothing retains the chunk, and it avoids a native
      // call per argument. Longer ones are decoded on their own so stored keys and values never
      // pin a whole 64 KiB chunk in memory.
      args[i] = bl < 13 && this.text !== undefined ? this.text.slice(p, p + bl) : latin1(buf, p, p + bl);
      p += bl + 2;
    }
    this.pos = p;
    return args;
  }
}

/** Splits an inline request the way Redis's sdssplitargs does (quotes and escapes supported). */
export function splitInline(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = line.length;
  for (;;) {
    while (i < n && isSpace(line.charCodeAt(i))) i++;
    if (i >= n) return out;
    let cur = '';
    let inQ = false;
    let inSQ = false;
    for (;;) {
      if (inQ) {
        if (i >= n) throw new ProtocolError('ERR Protocol error: unbalanced quotes in request');
        const ch = line[i]!;
        if (ch === '\\' && line[i + 1] === 'x' && isHex(line[i + 2]) && isHex(line[i + 3])) {
          cur += String.fromCharCode(parseInt(line.slice(i + 2, i + 4), 16));
          i += 3;
        } else if (ch === '\\' && i + 1 < n) {
          i++;
          const e = line[i]!;
          cur += e === 'n' ? '\n' : e === 'r' ? '\r' : e === 't' ? '\t' : e === 'b' ? '\b' : e === 'a' ? '\x07' : e;
        } else if (ch === '"') {
          if (i + 1 < n && !isSpace(line.charCodeAt(i + 1))) {
            throw new ProtocolError('ERR Protocol error: unbalanced quotes in request');
          }
          inQ = false;
        } else cur += ch;
      } else if (inSQ) {
        if (i >= n) throw new ProtocolError('ERR Protocol error: unbalanced quotes in request');
        const ch = line[i]!;
        if (ch === '\\' && line[i + 1] === "'") {
          i++;
          cur += "'";
        } else if (ch === "'") {
          if (i + 1 < n && !isSpace(line.charCodeAt(i + 1))) {
            throw new ProtocolError('ERR Protocol error: unbalanced quotes in request');
          }
          inSQ = false;
        } else cur += ch;
      } else {
        if (i >= n) break;
        const ch = line[i]!;
        if (isSpace(line.charCodeAt(i))) break;
        if (ch === '"') inQ = true;
        else if (ch === "'") inSQ = true;
        else cur += ch;
      }
      i++;
    }
    out.push(cur);
  }
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;
}

function isHex(c: string | undefined): boolean {
  return c !== undefined && /[0-9a-fA-F]/.test(c);
}

// Buffer#latin1Slice is the fast path behind toString('latin1') but is missing from @types/node.
type Latin1Buffer = Buffer & { latin1Slice(start: number, end: number): string };
const hasLatin1Slice = typeof (Buffer.prototype as Partial<Latin1Buffer>).latin1Slice === 'function';
function latin1(buf: Buffer, s: number, e: number): string {
  return hasLatin1Slice ? (buf as Latin1Buffer).latin1Slice(s, e) : buf.toString('latin1', s, e);
}
