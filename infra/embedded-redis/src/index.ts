// Public API: startEmbeddedRedis() starts a Redis-protocol server on host:port.
import net from 'node:net';
import path from 'node:path';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { DataDirError, lockDataDir, prepareDataDir } from './datadir.ts';
import { activeExpireCycle, handleConnection } from './server.ts';
import { loadSnapshot, removeStaleTemps, serialise, writeSnapshot, writeSnapshotSync } from './snapshot.ts';
import { ServerState } from './state.ts';

export interface EmbeddedRedisOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Directory for the snapshot file; omitted = memory only. Created if missing. */
  dataDir?: string;
  logger?: Logger;
  /** How often a dirty keyspace is snapshotted, in ms (default 5000). */
  snapshotIntervalMs?: number;
}

export interface EmbeddedRedis {
  host: string;
  port: number;
  /** redis://host:port, ready for ioredis. */
  url: string;
  /** Stops accepting, disconnects clients, writes a final snapshot. Idempotent. */
  close(): Promise<void>;
}

/** Configuration problems the CLI reports as one line (exit 2) instead of a stack trace. */
export class EmbeddedRedisConfigError extends Error {}

export { SnapshotError } from './snapshot.ts';

export async function startEmbeddedRedis(opts: EmbeddedRedisOptions = {}): Promise<EmbeddedRedis> {
  const host = opts.host ?? '127.0.0.1';
  const wantPort = opts.port ?? 0;
  if (!Number.isInteger(wantPort) || wantPort < 0 || wantPort > 65535) {
    throw new EmbeddedRedisConfigError(`invalid port ${String(opts.port)}: expected an integer 0-65535`);
  }
  const log = opts.logger ?? pino({ level: 'silent' });
  const state = new ServerState();
  const dataDir = opts.dataDir !== undefined ? path.resolve(opts.dataDir) : undefined;
  let releaseLock = (): void => undefined;
  if (dataDir !== undefined) {
    try {
      prepareDataDir(dataDir);
      releaseLock = lockDataDir(dataDir);
    } catch (err) {
      if (err instanceof DataDirError) throw new EmbeddedRedisConfigError(err.message);
      throw err;
    }
    state.dataDir = dataDir;
    try {
      removeStaleTemps(dataDir);
      const loaded = loadSnapshot(dataDir, state);
      log.info({ dataDir, keys: loaded }, 'snapshot loaded');
    } catch (err) {
      releaseLock();
      throw err;
    }
    state.dirty = 0;
  }

  const server = net.createServer((sock) => handleConnection(sock, state, log));
  const sockets = new Set<net.Socket>();
  server.on('connection', (sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
  });
  await new Promise<void>((resolve, reject) => {
    const onErr = (err: NodeJS.ErrnoException): void => {
      releaseLock();
      if (err.code === 'EADDRINUSE') reject(new EmbeddedRedisConfigError(`port ${wantPort} on ${host} is already in use`));
      else if (err.code === 'EACCES') reject(new EmbeddedRedisConfigError(`no permission to listen on ${host}:${wantPort}`));
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') {
        reject(new EmbeddedRedisConfigError(`cannot listen on host ${host}: address not available`));
      } else reject(err);
    };
    server.once('error', onErr);
    server.listen(wantPort, host, () => {
      server.off('error', onErr);
      resolve();
    });
  });
  const addr = server.address() as net.AddressInfo;
  state.port = addr.port;
  server.on('error', (err) => log.error({ err: err.message }, 'server error'));

  const expiryTimer = setInterval(() => activeExpireCycle(state), 100);
  expiryTimer.unref();

  let saving: Promise<void> | undefined;
  /** Bumped by every snapshot taken; a background write only commits if it is still the newest. */
  let generation = 0;
  const snapshotNow = (): void => {
    if (dataDir === undefined) return;
    generation++;
    const dirtyBefore = state.dirty;
    const { chunks, keys } = serialise(state);
    writeSnapshotSync(dataDir, chunks);
    state.dirty -= dirtyBefore;
    state.lastSaveAt = Math.floor(Date.now() / 1000);
    log.info({ keys }, 'snapshot written');
  };
  if (dataDir !== undefined) state.save = snapshotNow;
  const snapTimer =
    dataDir === undefined
      ? undefined
      : setInterval(() => {
          if (state.dirty === 0 || saving !== undefined) return;
          const dirtyBefore = state.dirty;
          const mine = ++generation;
          const { chunks, keys } = serialise(state);
          saving = writeSnapshot(dataDir, chunks, () => mine === generation)
            .then((kept) => {
              if (!kept) return;
              state.dirty -= dirtyBefore;
              state.lastSaveAt = Math.floor(Date.now() / 1000);
              log.debug({ keys }, 'snapshot written');
            })
            .catch((err: Error) => log.error({ err: err.message }, 'snapshot failed'))
            .finally(() => {
              saving = undefined;
            });
        }, opts.snapshotIntervalMs ?? 5000);
  snapTimer?.unref();

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      clearInterval(expiryTimer);
      if (snapTimer !== undefined) clearInterval(snapTimer);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const sock of sockets) sock.destroy();
      await stopped;
      if (saving !== undefined) await saving;
      try {
        if (dataDir !== undefined) snapshotNow();
      } finally {
        releaseLock();
      }
      log.info({ port: state.port }, 'closed');
    })();
    return closing;
  };

  log.info({ host, port: state.port, dataDir: dataDir ?? null }, 'listening');
  return { host, port: state.port, url: `redis://${host}:${state.port}`, close };
}
