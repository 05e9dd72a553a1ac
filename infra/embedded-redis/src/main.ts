// CLI: node --import tsx src/main.ts [--host 127.0.0.1] [--port 6379] [--data-dir DIR]
//        [--snapshot-interval-ms 5000] [--appendonly yes|no] [--appendfsync always|everysec|no]
// Env fallbacks: EMBEDDED_REDIS_HOST, EMBEDDED_REDIS_PORT, EMBEDDED_REDIS_DATA_DIR,
// EMBEDDED_REDIS_SNAPSHOT_INTERVAL_MS, EMBEDDED_REDIS_APPENDONLY, EMBEDDED_REDIS_APPENDFSYNC, LOG_LEVEL.
import { pino } from 'pino';
import { EmbeddedRedisConfigError, SnapshotError, startEmbeddedRedis } from './index.ts';
import type { EmbeddedRedis, FsyncPolicy } from './index.ts';

function fail(msg: string): never {
  process.stderr.write(`embedded-redis: ${msg}\n`);
  process.exit(2);
}

interface Cli {
  host: string;
  port: number;
  dataDir: string | undefined;
  snapshotIntervalMs: number;
  appendonly: boolean;
  appendfsync: FsyncPolicy;
}

function parseArgs(argv: string[]): Cli {
  const env = process.env;
  let host = env.EMBEDDED_REDIS_HOST ?? '127.0.0.1';
  let portRaw = env.EMBEDDED_REDIS_PORT ?? '6379';
  let dataDir = env.EMBEDDED_REDIS_DATA_DIR !== '' ? env.EMBEDDED_REDIS_DATA_DIR : undefined;
  let intervalRaw = env.EMBEDDED_REDIS_SNAPSHOT_INTERVAL_MS ?? '5000';
  let aofRaw = env.EMBEDDED_REDIS_APPENDONLY ?? 'yes';
  let fsyncRaw = env.EMBEDDED_REDIS_APPENDFSYNC ?? 'everysec';
  /** AOF options asked for explicitly: without a data dir they could not take effect, so they are refused. */
  let aofAsked = env.EMBEDDED_REDIS_APPENDONLY !== undefined || env.EMBEDDED_REDIS_APPENDFSYNC !== undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') fail(`option ${flag} needs a value`);
      return v;
    };
    if (flag === '--host') host = value();
    else if (flag === '--port') portRaw = value();
    else if (flag === '--data-dir') dataDir = value();
    else if (flag === '--snapshot-interval-ms') intervalRaw = value();
    else if (flag === '--appendonly') {
      aofRaw = value();
      aofAsked = true;
    } else if (flag === '--appendfsync') {
      fsyncRaw = value();
      aofAsked = true;
    }
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write('usage: main.ts [--host 127.0.0.1] [--port 6379] [--data-dir DIR] [--snapshot-interval-ms N] [--appendonly yes|no] [--appendfsync always|everysec|no]\n');
      process.exit(0);
    } else fail(`unknown option ${a}`);
  }
  if (!/^\d+$/.test(portRaw) || Number(portRaw) > 65535) fail(`invalid port '${portRaw}': expected an integer 0-65535`);
  if (!/^\d+$/.test(intervalRaw) || Number(intervalRaw) < 10) {
    fail(`invalid snapshot interval '${intervalRaw}': expected milliseconds >= 10`);
  }
  if (aofRaw !== 'yes' && aofRaw !== 'no') fail(`invalid appendonly '${aofRaw}': expected yes or no`);
  if (aofAsked && aofRaw === 'yes' && dataDir === undefined) fail('--appendonly/--appendfsync need --data-dir (the append-only file lives there)');
  if (fsyncRaw !== 'always' && fsyncRaw !== 'everysec' && fsyncRaw !== 'no') {
    fail(`invalid appendfsync '${fsyncRaw}': expected always, everysec or no`);
  }
  return {
    host,
    port: Number(portRaw),
    dataDir,
    snapshotIntervalMs: Number(intervalRaw),
    appendonly: aofRaw === 'yes',
    appendfsync: fsyncRaw,
  };
}

const cli = parseArgs(process.argv.slice(2));
// Synchronous stdout so the "listening" line is out before anyone connects and nothing is lost on exit.
const logger = pino(
  { base: { service: 'embedded-redis' }, level: process.env.LOG_LEVEL ?? 'info' },
  pino.destination({ dest: 1, sync: true }),
);

let server: EmbeddedRedis | undefined;
let stopping = false;
const shutdown = (srv: EmbeddedRedis): void => {
  srv
    .close()
    .then(() => process.exit(0))
    .catch((err: Error) => {
      process.stderr.write(`embedded-redis: shutdown failed: ${err.message}\n`);
      process.exit(1);
    });
};
const stop = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  // A signal during startup is served as soon as the server is up (see below).
  if (server) shutdown(server);
};
// Before starting: a supervisor may stop the server the moment it logs "listening".
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
try {
  server = await startEmbeddedRedis({
    host: cli.host,
    port: cli.port,
    dataDir: cli.dataDir,
    logger,
    snapshotIntervalMs: cli.snapshotIntervalMs,
    ...(cli.dataDir !== undefined ? { appendonly: cli.appendonly, appendfsync: cli.appendfsync } : {}),
  });
} catch (err) {
  if (err instanceof EmbeddedRedisConfigError) fail(err.message);
  if (err instanceof SnapshotError) fail(`cannot load snapshot: ${err.message}`);
  fail(`cannot start: ${(err as Error).message}`);
}
if (stopping) shutdown(server);
process.on('uncaughtException', (err) => {
  // Keep the contract of one readable line; the stack goes to the JSON log for debugging.
  logger.fatal({ err: err.message, stack: err.stack }, 'uncaught exception');
  process.stderr.write(`embedded-redis: fatal: ${err.message}\n`);
  // Best effort: the keyspace is usually intact, so try to write the final snapshot first.
  setTimeout(() => process.exit(1), 3000).unref();
  (server?.close() ?? Promise.resolve())
    .catch(() => undefined)
    .finally(() => process.exit(1));
});
