// Public API: startEmbeddedRedis() starts a Redis-protocol server on host:port.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { DataDirError, lockDataDir, prepareDataDir } from './datadir.ts';
import { activeExpireCycle, activeExpireEveryMs, handleConnection } from './server.ts';
import { SnapshotError } from './snapshot.ts';
import { AofError, AppendOnlyFile, FSYNC_POLICIES, aofFiles, aofPath } from './aof.ts';
import type { FsyncPolicy } from './aof.ts';
import { replayAof } from './replay.ts';
import { dropExpired, loadSnapshot, removeStaleTemps, serialise, writeSnapshot, writeSnapshotSync } from './snapshot.ts';
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
  /** Append-only file in the data dir (default true whenever there is a data dir). */
  appendonly?: boolean;
  /** When the AOF is fsynced: 'always' (before each reply), 'everysec' (default), 'no' (by the OS). */
  appendfsync?: FsyncPolicy;
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
export { AofError } from './aof.ts';
export type { FsyncPolicy } from './aof.ts';

export async function startEmbeddedRedis(opts: EmbeddedRedisOptions = {}): Promise<EmbeddedRedis> {
  const host = opts.host ?? '127.0.0.1';
  const wantPort = opts.port ?? 0;
  if (!Number.isInteger(wantPort) || wantPort < 0 || wantPort > 65535) {
    throw new EmbeddedRedisConfigError(`invalid port ${String(opts.port)}: expected an integer 0-65535`);
  }
  const log = opts.logger ?? pino({ level: 'silent' });
  const appendfsync = opts.appendfsync ?? 'everysec';
  if (!FSYNC_POLICIES.includes(appendfsync)) {
    throw new EmbeddedRedisConfigError(`invalid appendfsync '${String(appendfsync)}': expected always, everysec or no`);
  }
  if (opts.dataDir === undefined && (opts.appendonly === true || opts.appendfsync !== undefined)) {
    throw new EmbeddedRedisConfigError('appendonly/appendfsync need a dataDir (the append-only file lives there)');
  }
  const state = new ServerState();
  state.appendfsync = appendfsync;
  state.log = log;
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
      const replayed = replayAof(dataDir, loaded.aofSeq, state, log);
      dropExpired(state);
      log.info({ dataDir, keys: loaded.keys, aofCommands: replayed.commands }, 'snapshot loaded');
      if (opts.appendonly ?? true) {
        state.aof = new AppendOnlyFile(dataDir, replayed.lastSeq + 1, appendfsync, log);
      }
    } catch (err) {
      releaseLock();
      if (err instanceof AofError) throw new SnapshotError(err.message);
      throw err;
    }
    state.totalCommands = 0;
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

  // Active expiry runs when a key is due (or while the expiry table is walked), not on a fixed
  // 100 ms tick: an idle server whose keys expire tomorrow sleeps until tomorrow (issue 42).
  let expiryTimer: NodeJS.Timeout | undefined;
  let expiryAt = Number.POSITIVE_INFINITY;
  let closed = false;
  const expireNow = (): void => {
    expiryTimer = undefined;
    expiryAt = Number.POSITIVE_INFINITY;
    const next = activeExpireCycle(state);
    if (next !== undefined) expireAt(next);
  };
  const expireAt = (at: number): void => {
    if (closed || at >= expiryAt) return;
    clearTimeout(expiryTimer);
    expiryAt = at;
    expiryTimer = setTimeout(expireNow, Math.max(0, at - Date.now()));
    expiryTimer.unref();
  };
  for (const db of state.dbs) db.onExpireSet = (at) => expireAt(Math.max(at, Date.now() + activeExpireEveryMs));
  // Keys loaded with their expiries at start-up: a first walk finds the soonest.
  expireAt(Date.now() + activeExpireEveryMs);

  let saving: Promise<void> | undefined;
  /** Bumped by every snapshot taken; a background write only commits if it is still the newest. */
  let generation = 0;
  const snapshotNow = (): void => {
    if (dataDir === undefined) return;
    generation++;
    const dirtyBefore = state.dirty;
    const aofSeq = state.aof?.rotate();
    const { chunks, keys } = serialise(state, Date.now(), aofSeq ?? nextAofAfterSnapshot(dataDir));
    writeSnapshotSync(dataDir, chunks);
    dropAofBefore(dataDir, aofSeq);
    state.dirty -= dirtyBefore;
    state.lastSaveAt = Math.floor(Date.now() / 1000);
    log.info({ keys }, 'snapshot written');
  };
  if (dataDir !== undefined) state.save = snapshotNow;
  // Files replayed at start-up while the AOF is off now live only in memory: fold them into a snapshot.
  if (dataDir !== undefined && state.aof === undefined && aofFiles(dataDir).length > 0) snapshotNow();
  // A background snapshot snapshotIntervalMs after the first write since the last one (a timer set
  // by writes, not an interval: an idle server holds none).
  let snapTimer: NodeJS.Timeout | undefined;
  const snapshotSoon = (): void => {
    if (snapTimer !== undefined || dataDir === undefined || closed) return;
    snapTimer = setTimeout(snapshotInBackground, opts.snapshotIntervalMs ?? 5000);
    snapTimer.unref();
  };
  const snapshotInBackground = (): void => {
    snapTimer = undefined;
    if (state.dirty === 0 || dataDir === undefined || closed) return;
    if (saving !== undefined) return snapshotSoon();
    const dirtyBefore = state.dirty;
    const mine = ++generation;
    const aofSeq = state.aof?.rotate();
    const { chunks, keys } = serialise(state, Date.now(), aofSeq ?? nextAofAfterSnapshot(dataDir));
    saving = writeSnapshot(dataDir, chunks, () => mine === generation)
      .then((kept) => {
        if (!kept) return;
        dropAofBefore(dataDir, aofSeq);
        state.dirty -= dirtyBefore;
        state.lastSaveAt = Math.floor(Date.now() / 1000);
        log.debug({ keys }, 'snapshot written');
      })
      .catch((err: Error) => log.error({ err: err.message }, 'snapshot failed'))
      .finally(() => {
        saving = undefined;
        // Writes while it was written (or a snapshot that failed or lost to a newer one): another.
        if (state.dirty > 0) snapshotSoon();
      });
  };
  state.onFirstDirty = snapshotSoon;
  if (state.dirty > 0) snapshotSoon();

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      closed = true;
      clearTimeout(expiryTimer);
      clearTimeout(snapTimer);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const sock of sockets) sock.destroy();
      await stopped;
      if (saving !== undefined) await saving;
      try {
        if (dataDir !== undefined) snapshotNow();
      } finally {
        state.aof?.close();
        releaseLock();
      }
      log.info({ port: state.port }, 'closed');
    })();
    return closing;
  };

  log.info({ host, port: state.port, dataDir: dataDir ?? null }, 'listening');
  return { host, port: state.port, url: `redis://${host}:${state.port}`, close };
}

/**
 * Without an AOF a snapshot still names the file after every existing one, so AOF files left from
 * an earlier run (already folded into this snapshot) are never replayed over it again.
 */
function nextAofAfterSnapshot(dir: string): number {
  const files = aofFiles(dir);
  return files.length > 0 ? files[files.length - 1]! + 1 : 0;
}

/** After a snapshot is committed: the AOF files before it are redundant (none kept when AOF is off). */
function dropAofBefore(dir: string, seq: number | undefined): void {
  for (const n of aofFiles(dir)) {
    if (seq === undefined || n < seq) fs.rmSync(aofPath(dir, n), { force: true });
  }
}
