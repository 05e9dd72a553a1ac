// A tiny RESP2/RESP3 client that keeps every reply's wire type, so tests can check exactly what
// a server sent (simple vs bulk string, map vs array, double, push frames, null kinds).
import net from 'node:net';

export type Resp =
  | { t: 'simple'; v: string }
  | { t: 'error'; v: string }
  | { t: 'int'; v: number }
  | { t: 'bulk'; v: string }
  | { t: 'null'; v: null; kind: 'bulk' | 'array' | 'resp3' }
  | { t: 'double'; v: string }
  | { t: 'bool'; v: boolean }
  | { t: 'verbatim'; v: string }
  | { t: 'array' | 'set' | 'push'; v: Resp[] }
  | { t: 'map'; v: [Resp, Resp][] };

/** Parses one reply at `pos`; returns undefined when more bytes are needed. */
export function parseReply(buf: Buffer, pos: number): [Resp, number] | undefined {
  if (pos >= buf.length) return undefined;
  const nl = buf.indexOf('\r\n', pos, 'latin1');
  if (nl === -1) return undefined;
  const type = String.fromCharCode(buf[pos]!);
  const line = buf.toString('latin1', pos + 1, nl);
  let p = nl + 2;
  switch (type) {
    case '+':
      return [{ t: 'simple', v: line }, p];
    case '-':
      return [{ t: 'error', v: line }, p];
    case ':':
      return [{ t: 'int', v: Number(line) }, p];
    case ',':
      return [{ t: 'double', v: line }, p];
    case '#':
      return [{ t: 'bool', v: line === 't' }, p];
    case '_':
      return [{ t: 'null', v: null, kind: 'resp3' }, p];
    case '$':
    case '=': {
      const n = Number(line);
      if (n < 0) return [{ t: 'null', v: null, kind: 'bulk' }, p];
      if (p + n + 2 > buf.length) return undefined;
      const s = buf.toString('latin1', p, p + n);
      return [type === '$' ? { t: 'bulk', v: s } : { t: 'verbatim', v: s.slice(4) }, p + n + 2];
    }
    case '*':
    case '~':
    case '>':
    case '%': {
      const n = Number(line);
      if (n < 0) return [{ t: 'null', v: null, kind: 'array' }, p];
      const count = type === '%' ? n * 2 : n;
      const items: Resp[] = [];
      for (let i = 0; i < count; i++) {
        const r = parseReply(buf, p);
        if (r === undefined) return undefined;
        items.push(r[0]);
        p = r[1];
      }
      if (type === '%') {
        const pairs: [Resp, Resp][] = [];
        for (let i = 0; i < items.length; i += 2) pairs.push([items[i]!, items[i + 1]!]);
        return [{ t: 'map', v: pairs }, p];
      }
      return [{ t: type === '*' ? 'array' : type === '~' ? 'set' : 'push', v: items }, p];
    }
    default:
      throw new Error(`unexpected reply type byte ${JSON.stringify(type)}`);
  }
}

export function encodeCommand(args: readonly (string | number)[]): string {
  let s = '*' + args.length + '\r\n';
  for (const a of args) {
    const v = String(a);
    s += '$' + Buffer.byteLength(v, 'latin1') + '\r\n' + v + '\r\n';
  }
  return s;
}

export class RawClient {
  private buf: Buffer = Buffer.alloc(0);
  private waiting: ((r: Resp) => void)[] = [];
  /** Push frames (RESP3) are kept here instead of answering a pending call. */
  readonly pushes: Resp[] = [];
  /** When true, every reply goes to `pushes` (RESP2 subscribers get plain arrays). */
  subscriberMode = false;
  closed = false;
  private closeWaiters: (() => void)[] = [];

  private constructor(private readonly sock: net.Socket) {
    sock.on('data', (d: Buffer) => this.onData(d));
    sock.on('close', () => {
      this.closed = true;
      for (const w of this.closeWaiters) w();
    });
    sock.on('error', () => undefined);
  }

  static connect(port: number, host = '127.0.0.1'): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const sock = net.connect(port, host, () => resolve(new RawClient(sock)));
      sock.once('error', reject);
    });
  }

  private onData(d: Buffer): void {
    this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]);
    let pos = 0;
    for (;;) {
      const r = parseReply(this.buf, pos);
      if (r === undefined) break;
      pos = r[1];
      const reply = r[0];
      if (reply.t === 'push' || (this.subscriberMode && this.waiting.length === 0)) this.pushes.push(reply);
      else this.waiting.shift()?.(reply);
    }
    this.buf = this.buf.subarray(pos);
  }

  call(...args: (string | number)[]): Promise<Resp> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.sock.write(encodeCommand(args), 'latin1');
    });
  }

  /** Writes raw bytes; expects `replies` replies back. */
  async sendRaw(data: string | Buffer, replies: number): Promise<Resp[]> {
    const out: Promise<Resp>[] = [];
    for (let i = 0; i < replies; i++) out.push(new Promise((resolve) => this.waiting.push(resolve)));
    if (typeof data === 'string') this.sock.write(data, 'latin1');
    else this.sock.write(data);
    return Promise.all(out);
  }

  waitClose(timeoutMs = 2000): Promise<boolean> {
    if (this.closed) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), timeoutMs);
      this.closeWaiters.push(() => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }

  async waitPushes(n: number, timeoutMs = 2000): Promise<Resp[]> {
    const until = Date.now() + timeoutMs;
    while (this.pushes.length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    return this.pushes.splice(0, this.pushes.length);
  }

  close(): void {
    this.sock.destroy();
  }
}

/** RESP2-shaped plain value (what ioredis returns in legacy mode); errors become { error }. */
export type Plain = string | number | null | boolean | { error: string } | Plain[];

export function plain(r: Resp): Plain {
  switch (r.t) {
    case 'error':
      return { error: r.v };
    case 'array':
    case 'set':
    case 'push':
      return r.v.map(plain);
    case 'map':
      return r.v.flatMap(([k, v]) => [plain(k), plain(v)]);
    case 'null':
      return null;
    default:
      return r.v;
  }
}
