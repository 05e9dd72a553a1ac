import type { Socket } from 'node:net';
import { HANDLERS } from './api/dispatch.ts';
import { authenticatePlain } from './api/sasl.ts';
import { unsupportedVersionAnswer } from './api/unsupported.ts';
import type { BrokerContext, RequestHeader, Session } from './broker-context.ts';
import { ApiKey, MAX_VERSION } from './protocol/api-keys.ts';
import { MalformedRequestError, Reader } from './protocol/reader.ts';
import type { Writer } from './protocol/writer.ts';

/** Larger than any sane request (kafkajs/librdkafka default to 1 MB messages, 100 MB socket buffers). */
const MAX_FRAME_BYTES = 100 * 1024 * 1024;
const MAX_UNSENT_BYTES = 64 * 1024 * 1024;

interface Slot {
  done: boolean;
  out: Buffer | null;
  /** The connection ends once this answer is written (refused authentication). */
  last?: boolean;
}

/** What an unauthenticated client may send when SASL is on (SaslAuthenticate only after a v1 handshake). */
function allowedBeforeAuth(session: Session, apiKey: number): boolean {
  if (apiKey === ApiKey.ApiVersions || apiKey === ApiKey.SaslHandshake) return true;
  return apiKey === ApiKey.SaslAuthenticate && session.state === 'authenticate';
}

/** A PLAIN token's answer after a v0 handshake: an empty, size-prefixed token. */
const EMPTY_TOKEN = Buffer.alloc(4);

/**
 * One client connection: splits the byte stream into size-prefixed frames, starts each request
 * as it arrives and writes the answers strictly in request order. A slow request (long-poll
 * Fetch, JoinGroup barrier) therefore delays only later answers on this same connection.
 */
export function serveConnection(ctx: BrokerContext, socket: Socket): void {
  const clientHost = `/${socket.remoteAddress ?? ''}`;
  const log = ctx.logger.child({ remote: `${socket.remoteAddress}:${socket.remotePort}` });
  const chunks: Buffer[] = [];
  let buffered = 0;
  const queue: Slot[] = [];
  let closed = false;
  const session: Session = { state: 'start', principal: null, closeAfterReply: false };

  socket.setNoDelay(true);
  log.debug('connection opened');

  const close = (level: 'warn' | 'error', msg: string, detail: Record<string, unknown>): void => {
    if (closed) return;
    closed = true;
    log[level](detail, msg);
    socket.destroy();
  };

  const flush = (): void => {
    if (closed) return;
    socket.cork();
    while (queue.length > 0 && (queue[0] as Slot).done) {
      const slot = queue.shift() as Slot;
      if (slot.out) socket.write(slot.out);
      if (slot.last) {
        // Written, then the connection ends, as Kafka closes it after a refused authentication.
        closed = true;
        queue.length = 0;
        socket.uncork();
        socket.end();
        setTimeout(() => socket.destroy(), 1000).unref();
        return;
      }
    }
    socket.uncork();
    // A client that does not read its answers stops being read from, so its backlog cannot grow
    // the broker's memory without bound.
    if (socket.writableLength > MAX_UNSENT_BYTES && !socket.isPaused()) {
      socket.pause();
      socket.once('drain', () => socket.resume());
    }
  };

  const fail = (err: unknown, header: RequestHeader): void => {
    if (err instanceof MalformedRequestError) {
      close('warn', 'malformed request, connection closed', { apiKey: header.apiKey, apiVersion: header.apiVersion, err: err.message });
    } else {
      close('error', 'request failed, connection closed', { apiKey: header.apiKey, apiVersion: header.apiVersion, err });
    }
  };

  /** After a v0 SaslHandshake the next frame is the bare PLAIN token, without a request header. */
  const handleRawToken = (frame: Buffer): void => {
    session.state = 'start';
    if (authenticatePlain(ctx, { session, clientHost }, frame) !== null) {
      // Kafka answers nothing to a refused bare token: it closes the connection.
      close('warn', 'SASL authentication failed, connection closed', {});
      return;
    }
    queue.push({ done: true, out: EMPTY_TOKEN });
    flush();
  };

  const handleFrame = (frame: Buffer): void => {
    if (session.state === 'raw') return handleRawToken(frame);
    const r = new Reader(frame);
    let header: RequestHeader;
    try {
      header = { apiKey: r.int16(), apiVersion: r.int16(), correlationId: r.int32(), clientId: r.nullableString(), clientHost, session };
    } catch (err) {
      close('warn', 'malformed request, connection closed', { err: (err as Error).message });
      return;
    }
    if (ctx.acl !== null && session.state !== 'done' && !allowedBeforeAuth(session, header.apiKey)) {
      close('warn', 'request before SASL authentication, connection closed', { apiKey: header.apiKey, clientId: header.clientId });
      return;
    }
    const handler = HANDLERS.get(header.apiKey);
    const max = MAX_VERSION.get(header.apiKey) ?? -1;
    // ApiVersions is the one request a client may send in a version we do not know.
    const tooNew = header.apiVersion > max && header.apiKey !== ApiKey.ApiVersions;
    const answer = handler && tooNew ? unsupportedVersionAnswer(header.apiKey, header.apiVersion) : null;
    if (answer) {
      log.warn({ apiKey: header.apiKey, apiVersion: header.apiVersion, maxVersion: max, clientId: header.clientId }, 'unsupported version, answered UNSUPPORTED_VERSION');
      const slot: Slot = { done: true, out: answer.frame(header.correlationId) };
      queue.push(slot);
      flush();
      return;
    }
    if (!handler || tooNew || header.apiVersion < 0) {
      close('warn', 'unsupported request, connection closed', { apiKey: header.apiKey, apiVersion: header.apiVersion, clientId: header.clientId });
      return;
    }
    const slot: Slot = { done: false, out: null };
    queue.push(slot);
    const arrived = performance.now();
    const finish = (w: Writer | null): void => {
      slot.done = true;
      if (session.closeAfterReply) slot.last = true;
      slot.out = w ? w.frame(header.correlationId) : null;
      flush();
      // Includes time spent queued behind earlier answers on this connection.
      if (slot.out) ctx.stats.request(header.apiKey).record(performance.now() - arrived);
    };
    try {
      const res = handler(ctx, header, r);
      if (res instanceof Promise) res.then(finish, (err: unknown) => fail(err, header));
      else finish(res);
    } catch (err) {
      fail(err, header);
    }
  };

  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    buffered += chunk.length;
    while (!closed && buffered >= 4) {
      const head = chunks[0] as Buffer;
      const size = head.length >= 4 ? head.readInt32BE(0) : Buffer.concat(chunks, 4).readInt32BE(0);
      // A bare SASL token (after a v0 handshake) has no request header: only the size bounds it.
      if (size < (session.state === 'raw' ? 0 : 8) || size > MAX_FRAME_BYTES) {
        close('warn', 'malformed request, connection closed', { frameSize: size });
        return;
      }
      if (buffered < size + 4) return;
      const all = chunks.length === 1 ? head : Buffer.concat(chunks, buffered);
      const frame = all.subarray(4, size + 4);
      chunks.length = 0;
      buffered = all.length - size - 4;
      if (buffered > 0) chunks.push(all.subarray(size + 4));
      handleFrame(frame);
    }
  });
  socket.on('error', (err) => log.debug({ err: err.message }, 'connection error'));
  socket.on('close', () => {
    closed = true;
    log.debug('connection closed');
  });
}
