// CLI: node --import tsx src/main.ts --port <n> --host 127.0.0.1 --data-dir <dir> [--repl-set rs0]
import pino from 'pino';
import { checkDataDir, startEmbeddedMongo } from './index.ts';
import { DataDirLockedError } from './journal.ts';
import { heapFigures } from './memory.ts';

function fail(message: string): never {
  process.stderr.write(`embedded-mongo: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (!a.startsWith('--')) fail(`unexpected argument "${a}"`);
    const eq = a.indexOf('=');
    if (eq > 0) out.set(a.slice(2, eq), a.slice(eq + 1));
    else {
      const v = argv[i + 1];
      if (v === undefined || v.startsWith('--')) fail(`option ${a} needs a value`);
      out.set(a.slice(2), v);
      i++;
    }
  }
  return out;
}

const SHUTDOWN_GUARD_MS = 60_000;

const KNOWN = new Set(['port', 'host', 'data-dir', 'repl-set', 'compact-bytes', 'log-level']);

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  for (const k of args.keys()) if (!KNOWN.has(k)) fail(`unknown option --${k}`);
  const env = process.env;
  const portText = args.get('port') ?? env['EMBEDDED_MONGO_PORT'] ?? '27017';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) fail(`bad port "${portText}" (expected 0-65535)`);
  const host = args.get('host') ?? env['EMBEDDED_MONGO_HOST'] ?? '127.0.0.1';
  const dataDir = args.get('data-dir') ?? env['EMBEDDED_MONGO_DATA_DIR'];
  const replSetName = args.get('repl-set') ?? env['EMBEDDED_MONGO_REPL_SET'] ?? 'rs0';
  const compactText = args.get('compact-bytes') ?? env['EMBEDDED_MONGO_COMPACT_BYTES'];
  const compactBytes = compactText === undefined ? undefined : Number(compactText);
  if (compactBytes !== undefined && !(compactBytes > 0)) fail(`bad compact-bytes "${compactText}"`);
  // Log through process.stdout rather than pino's default sonic-boom destination: its exit-time
  // flush spins forever on EPIPE when the launcher has closed our stdout, hanging shutdown.
  process.stdout.on('error', () => undefined);
  const logger = pino(
    { level: args.get('log-level') ?? env['EMBEDDED_MONGO_LOG_LEVEL'] ?? 'info', base: { svc: 'embedded-mongo' } },
    process.stdout,
  );
  if (dataDir) {
    try {
      checkDataDir(dataDir);
    } catch (e) {
      fail(`data dir "${dataDir}" is not writable: ${(e as Error).message}`);
    }
  }
  let server;
  try {
    server = await startEmbeddedMongo({ host, port, dataDir, replSetName, compactBytes, logger });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (e instanceof DataDirLockedError) fail(e.message);
    if (err.code === 'EADDRINUSE') fail(`port ${port} on ${host} is already in use`);
    if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') fail(`cannot listen on host "${host}"`);
    if (err.code === 'EACCES') fail(`permission denied listening on ${host}:${port}`);
    fail(`failed to start: ${err.message}`);
  }
  // The ready line is part of the launcher contract, so it is written whatever --log-level says.
  const ready = logger.isLevelEnabled('info') ? logger : pino({ level: 'info', base: { svc: 'embedded-mongo' } }, process.stdout);
  ready.info({ host: server.host, port: server.port, replSet: replSetName, url: server.url, dataDir: dataDir ?? null, ...heapFigures() }, 'listening');
  let stopping = false;
  // Logging must never block shutdown (e.g. when the launcher has closed our stdout pipe).
  const safeLog = (fn: () => void): void => {
    try {
      fn();
    } catch {
      // stdout gone: nothing useful to do with the log line.
    }
  };
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    safeLog(() => logger.info({ signal }, 'stopping'));
    // A guard against a hung shutdown, long enough for the snapshot a clean stop writes: about
    // 80 MB for 1,000,000 small documents, 5-12 s on a loaded 2-core machine (10 s cut it off).
    const force = setTimeout(() => {
      process.stderr.write(`embedded-mongo: shutdown took longer than ${SHUTDOWN_GUARD_MS / 1000} s, exiting\n`);
      process.exit(1);
    }, SHUTDOWN_GUARD_MS);
    force.unref();
    server.close().then(
      () => {
        safeLog(() => logger.info('stopped'));
        process.exit(0);
      },
      (e: unknown) => {
        process.stderr.write(`embedded-mongo: error while stopping: ${(e as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();
