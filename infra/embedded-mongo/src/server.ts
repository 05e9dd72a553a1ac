// TCP front end: frames messages, runs them in order per connection, and closes only the
// offending connection on malformed input.
import net from 'node:net';
import type { Logger } from 'pino';
import { ObjectId } from 'bson';
import { OpCounters } from './opcounters.ts';
import type { ServerInfo } from './commands/context.ts';
import { CursorStore } from './cursors.ts';
import { Dispatcher } from './dispatch.ts';
import { expireTtl } from './ttl.ts';
import type { Engine } from './engine.ts';
import { fromWireDoc } from './values.ts';
import type { Doc } from './values.ts';
import { MAX_MESSAGE_BYTES, buildMsg, buildReply, parseMessage } from './wire.ts';

export interface WireServerOptions {
  host: string;
  port: number;
  setName: string;
  logger: Logger;
  /** How often TTL indexes are applied (the server's TTL monitor runs every 60 s). */
  ttlIntervalMs: number;
}

export class WireServer {
  private readonly server = net.createServer((s) => this.accept(s));
  private readonly sockets = new Set<net.Socket>();
  private nextConnId = 1;
  private dispatcher: Dispatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ttlTimer: NodeJS.Timeout | undefined;
  readonly info: ServerInfo;

  constructor(
    private readonly engine: Engine,
    private readonly opts: WireServerOptions,
  ) {
    this.info = {
      me: `${opts.host}:${opts.port}`,
      setName: opts.setName,
      startedAt: new Date(),
      electionId: new ObjectId('7fffffff0000000000000001'),
      cursors: new CursorStore(),
      logger: opts.logger,
      opcounters: new OpCounters(),
    };
  }

  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.opts.port, this.opts.host, () => {
        this.server.off('error', reject);
        const addr = this.server.address();
        const port = typeof addr === 'object' && addr ? addr.port : this.opts.port;
        // Drivers connect to the advertised member address, so a wildcard bind advertises loopback.
        const advertised = this.opts.host === '0.0.0.0' || this.opts.host === '::' ? '127.0.0.1' : this.opts.host;
        this.info.me = `${advertised}:${port}`;
        this.dispatcher = new Dispatcher(this.engine, this.info);
        this.timer = setInterval(() => {
          this.dispatcher?.sweep();
          this.info.cursors.sweep();
        }, 1000);
        this.timer.unref();
        this.ttlTimer = setInterval(() => {
          expireTtl(this.engine)
            .then((n) => n && this.opts.logger.info({ deleted: n }, 'ttl expired documents'))
            .catch((e: unknown) => this.opts.logger.error({ err: (e as Error).message }, 'ttl pass failed'));
        }, this.opts.ttlIntervalMs);
        this.ttlTimer.unref();
        resolve(port);
      });
    });
  }

  private accept(socket: net.Socket): void {
    const connId = this.nextConnId++;
    this.sockets.add(socket);
    socket.setNoDelay(true);
    let buf = Buffer.alloc(0);
    let chain = Promise.resolve();
    const log = this.opts.logger;
    socket.on('data', (chunk) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      while (buf.length >= 4) {
        const len = buf.readInt32LE(0);
        if (len < 16 || len > MAX_MESSAGE_BYTES) {
          log.warn({ connId, len }, 'malformed message, closing connection');
          socket.destroy();
          return;
        }
        if (buf.length < len) break;
        const msg = buf.subarray(0, len);
        buf = buf.subarray(len);
        chain = chain
          .then(() => this.handle(socket, msg, connId))
          .catch((e: unknown) => {
            log.error({ connId, err: (e as Error).message }, 'connection failed');
            socket.destroy();
          });
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
  }

  private async handle(socket: net.Socket, msg: Buffer, connId: number): Promise<void> {
    if (socket.destroyed) return;
    let req;
    try {
      req = parseMessage(msg);
    } catch (e) {
      this.opts.logger.warn({ connId, err: (e as Error).message }, 'malformed message, closing connection');
      socket.destroy();
      return;
    }
    const cmd = fromWireDoc(req.command);
    let db = typeof cmd['$db'] === 'string' ? cmd['$db'] : 'admin';
    if (req.kind === 'query') db = (req.fullCollectionName ?? 'admin.$cmd').split('.')[0] ?? 'admin';
    const reply = await this.dispatcher!.run(cmd, db, connId);
    if (req.moreToCome || socket.destroyed) return;
    const build = (d: Doc): Buffer => (req.kind === 'query' ? buildReply(req.header.requestId, d) : buildMsg(req.header.requestId, d));
    let out: Buffer;
    try {
      out = build(reply);
    } catch (e) {
      // A reply that cannot be encoded still gets an answer, so the client is not left waiting.
      out = build({ ok: 0, errmsg: `cannot encode reply: ${(e as Error).message}`, code: 1, codeName: 'InternalError' });
    }
    socket.write(out);
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.ttlTimer) clearInterval(this.ttlTimer);
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      for (const s of this.sockets) s.destroy();
    });
  }
}
