// TCP front end: one RequestParser per connection, every complete request in a chunk executed in
// order, all replies of the chunk written with a single socket.write.
import type net from 'node:net';
import type { Logger } from 'pino';
import { serveReadyKeys, unblock } from './commands/blocking.ts';
import { dropSubscription } from './commands/pubsub.ts';
import { execute, unwatchAll } from './dispatch.ts';
import { ProtocolError, RequestParser } from './resp/parser.ts';
import { makeClientFields } from './state.ts';
import type { ServerState } from './state.ts';

/** Stop reading from a client whose unread replies exceed this, until its socket drains. */
const HIGH_WATER = 8 * 1024 * 1024;
/** A client that lets this much pile up (typically a stalled subscriber) is disconnected, like
 * Redis's client-output-buffer-limit, so one dead consumer cannot exhaust memory. */
const HARD_LIMIT = 64 * 1024 * 1024;

export function handleConnection(socket: net.Socket, s: ServerState, log: Logger): void {
  socket.setNoDelay(true);
  const id = s.nextClientId++;
  s.totalConnections++;
  const parser = new RequestParser();
  const reqs: string[][] = [];
  let processing = false;
  let closed = false;
  let paused = false;

  const flush = (): void => {
    const out = c.reply.take();
    if (out.length === 0 || closed) return;
    if (socket.write(out, 'latin1')) return;
    const queued = socket.writableLength;
    if (queued > HARD_LIMIT) {
      log.warn({ client: id, queued }, 'output buffer limit reached, closing client');
      closed = true;
      socket.destroy();
    } else if (queued > HIGH_WATER && !paused) {
      paused = true;
      socket.pause();
      socket.once('drain', () => {
        paused = false;
        socket.resume();
      });
    }
  };
  const c = makeClientFields(
    id,
    `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? 0}`,
    `${socket.localAddress ?? '?'}:${socket.localPort ?? 0}`,
    s.dbs[0]!,
    (data) => {
      c.reply.out += data;
      if (!processing) flush();
    },
  );
  s.clients.set(id, c);

  /** Requests parsed but not yet executed (a client blocked in BLPOP waits with them here). */
  let next = 0;
  let protoErr: string | undefined;

  /** Executes queued requests until done or the client blocks; then writes AOF and replies. */
  const run = (): void => {
    processing = true;
    for (; next < reqs.length && c.blocked === undefined; next++) {
      const mark = c.reply.out.length;
      try {
        execute(c, reqs[next]!, s);
      } catch (err) {
        // Drop any half-written reply so the client still sees exactly one reply per request.
        c.reply.out = c.reply.out.slice(0, mark);
        // A bug in one command must not take the whole server (and everyone's data) down.
        log.error({ client: id, cmd: reqs[next]![0], err: (err as Error).message }, 'command failed');
        c.reply.err(`ERR internal error while executing '${reqs[next]![0]}'`);
      }
      // Clients blocked on keys this command pushed to are served now, in Redis's order.
      if (s.readyKeys.length > 0) serveReadyKeys(s);
      if (c.closeAfterReply) {
        next = reqs.length;
        break;
      }
    }
    if (next >= reqs.length) {
      reqs.length = 0;
      next = 0;
    }
    processing = false;
    if (protoErr !== undefined && reqs.length === 0 && !c.closeAfterReply) {
      c.reply.err(protoErr);
      c.closeAfterReply = true;
      log.info({ client: id, err: protoErr }, 'protocol error, closing connection');
    }
    // Writes reach the append-only file before their acknowledgements leave.
    s.aof?.flush();
    flush();
    if (c.closeAfterReply) {
      closed = true;
      socket.end();
    }
  };
  c.resume = (): void => {
    if (!closed) run();
  };

  socket.on('data', (chunk: Buffer) => {
    if (closed || protoErr !== undefined) return;
    try {
      parser.feed(chunk, reqs);
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
      protoErr = err.message;
    }
    c.lastActive = Date.now();
    // While blocked, new requests only queue up (Redis does not read them either).
    if (c.blocked === undefined) run();
  });
  socket.on('error', (err) => {
    log.debug({ client: id, err: err.message }, 'client socket error');
  });
  socket.on('close', () => {
    closed = true;
    for (const ch of [...c.channels]) dropSubscription(c, s, false, ch);
    for (const p of [...c.patterns]) dropSubscription(c, s, true, p);
    unwatchAll(c);
    unblock(c, false);
    s.clients.delete(id);
  });
}

/**
 * Active expiry: reclaims expired keys nobody reads, in small time-boxed steps. Returns when the
 * next cycle is due (epoch ms), or undefined when no key has an expiry.
 */
export function activeExpireCycle(s: ServerState): number | undefined {
  const start = Date.now();
  let next = Number.POSITIVE_INFINITY;
  for (const db of s.dbs) {
    if (db.expires.size === 0) continue;
    let removedAny = false;
    for (let round = 0; round < 50; round++) {
      const removed = db.activeExpire(Date.now(), 200);
      removedAny ||= removed > 0;
      // Keep going only while a good share of what we sample is expired, and within 5 ms.
      if (removed < 50 || Date.now() - start > 5) break;
    }
    // Asleep until the soonest expiry a whole walk kept, once one completed and nothing is due;
    // otherwise (keys expiring, or a walk still under way) again in 100 ms, as Redis's hz 10.
    const bound = db.expiresNoSoonerThan;
    next = Math.min(next, !removedAny && bound !== undefined && bound > Date.now() ? bound : start + activeExpireEveryMs);
  }
  return next === Number.POSITIVE_INFINITY ? undefined : next;
}

/** The active-expiry cadence while keys are due or the expiry table is being walked. */
export const activeExpireEveryMs = 100;
