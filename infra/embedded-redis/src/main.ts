// CLI: node --import tsx src/main.ts [--host 127.0.0.1] [--port 6379] [--data-dir DIR]
//        [--snapshot-interval-ms 5000]
// Env fallbacks: EMBEDDED_REDIS_HOST, EMBEDDED_REDIS_PORT, EMBEDDED_REDIS_DATA_DIR,
// EMBEDDED_REDIS_SNAPSHOT_INTERVAL_MS, LOG_LEVEL.
import { pino } from 'pino';
import { EmbeddedRedisConfigError, SnapshotError, startEmbeddedRedis } from './index.ts';
import type { EmbeddedRedis } from './index.ts';

function fail(msg: string): never {
  process.stderr.write(`embedded-redis: ${msg}\n`);
  process.exit(2);
}

interface Cli {
  host: string;
  port: number;
  dataDir: string | undefined;
  snapshotIntervalMs: number;
}

function parseArgs(argv: string[]): Cli {
  const env = process.env;
  let host = env.EMBEDDED_REDIS_HOST ?? '127.0.0.1';
  let portRaw = env.EMBEDDED_REDIS_PORT ?? '6379';
  let dataDir = env.EMBEDDED_REDIS_DATA_DIR !== '' ? env.EMBEDDED_REDIS_DATA_DIR : undefined;
  let intervalRaw = env.EMBEDDED_REDIS_SNAPSHOT_INTERVAL_MS ?? '5000';
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
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write('usage: main.ts [--host 127.0.0.1] [--port 6379] [--data-dir DIR] [--snapshot-interval-ms N]\n');
      process.exit(0);
    } else fail(`unknown option ${a}`);
  }
  if (!/^\d+$/.test(portRaw) || Number(portRaw) > 65535) fail(`invalid port '${portRaw}': expected an integer 0-65535`);
  if (!/^\d+$/.test(intervalRaw) || Number(intervalRaw) < 10) {
    fail(`invalid snapshot interval '${intervalRaw}': expected milliseconds >= 10`);
  }
  return { host, port: Number(portRaw), dataDir, snapshotIntervalMs: Number(intervalRaw) };
}

const cli = parseArgs(process.argv.slice(2));
// Synchronous stdout so the "listening" line is out before anyone connects and nothing is lost on exit.
const logger = pino(
  { base: { service: 'embedded-redis' }, level: process.env.LOG_LEVEL ?? 'info' },
  pino.destination({ dest: 1, sync: true }),
);

let server: EmbeddedRedis;
try {
  server = await startEmbeddedRedis({
    host: cli.host,
    port: cli.port,
    dataDir: cli.dataDir,
    logger,
    snapshotIntervalMs: cli.snapshotIntervalMs,
  });
} catch (err) {
  if (err instanceof EmbeddedRedisConfigError) fail(err.message);
  if (err instanceof SnapshotError) fail(`cannot load snapshot: ${err.message}`);
  fail(`cannot start: ${(err as Error).message}`);
}

let stopping = false;
const stop = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  server
    .close()
    .then(() => process.exit(0))
    .catch((err: Error) => {
      process.stderr.write(`embedded-redis: shutdown failed: ${err.message}\n`);
      process.exit(1);
    });
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('uncaughtException', (err) => {
  // Keep the contract of one readable line; the stack goes to the JSON log for debugging.
  logger.fatal({ err: err.message, stack: err.stack }, 'uncaught exception');
  process.stderr.write(`embedded-redis: fatal: ${err.message}\n`);
  // Best effort: the keyspace is usually intact, so try to write the final snapshot first.
  setTimeout(() => process.exit(1), 3000).unref();
  server
    .close()
    .catch(() => undefined)
    .finally(() => process.exit(1));
});
