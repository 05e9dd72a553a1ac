import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { startEmbeddedKafka, type EmbeddedKafkaOptions } from './broker.ts';
import { EmbeddedKafkaError } from './errors.ts';

const USAGE = `usage: node --import tsx src/main.ts [--port 9092] [--host 127.0.0.1] [--data-dir .data/kafka]
  [--advertised-host H] [--advertised-port P] [--no-auto-create-topics] [--default-partitions N]
  [--retention-bytes N] [--retention-ms N] [--segment-bytes N] [--flush-interval-ms 1000] [--no-fsync] [--log-level info]
  [--users-file users.json]   SASL/PLAIN users and ACLs: {"users": {"name": {"password": ..., "produce": [...], ...}}}`;

function fail(message: string): never {
  process.stderr.write(`embedded-kafka: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(2);
}

function int(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) fail(`invalid ${name} "${value}": expected an integer`);
  return Number(value);
}

function parse(): { options: EmbeddedKafkaOptions; logLevel: string } {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        'advertised-host': { type: 'string' },
        'advertised-port': { type: 'string' },
        'auto-create-topics': { type: 'string' },
        'no-auto-create-topics': { type: 'boolean' },
        'default-partitions': { type: 'string' },
        'retention-bytes': { type: 'string' },
        'retention-ms': { type: 'string' },
        'segment-bytes': { type: 'string' },
        'flush-interval-ms': { type: 'string' },
        'no-fsync': { type: 'boolean' },
        'log-level': { type: 'string' },
        'users-file': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (err) {
    fail(`${(err as Error).message} (see --help)`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const env = process.env;
  const autoCreate = values['no-auto-create-topics'] ? 'false' : (values['auto-create-topics'] ?? env.EMBEDDED_KAFKA_AUTO_CREATE_TOPICS ?? 'true');
  if (autoCreate !== 'true' && autoCreate !== 'false') fail(`invalid auto-create-topics "${autoCreate}": expected true or false`);
  const fsyncEnv = env.EMBEDDED_KAFKA_FSYNC ?? 'true';
  if (fsyncEnv !== 'true' && fsyncEnv !== 'false') fail(`invalid EMBEDDED_KAFKA_FSYNC "${fsyncEnv}": expected true or false`);
  const options: EmbeddedKafkaOptions = {
    host: values.host ?? env.EMBEDDED_KAFKA_HOST ?? '127.0.0.1',
    port: int('port', values.port ?? env.EMBEDDED_KAFKA_PORT) ?? 9092,
    dataDir: values['data-dir'] ?? env.EMBEDDED_KAFKA_DATA_DIR ?? '.data/kafka',
    autoCreateTopics: autoCreate === 'true',
    fsync: values['no-fsync'] ? false : fsyncEnv === 'true',
  };
  const optional: [keyof EmbeddedKafkaOptions, string, string | undefined][] = [
    ['advertisedPort', 'advertised-port', values['advertised-port'] ?? env.EMBEDDED_KAFKA_ADVERTISED_PORT],
    ['defaultPartitions', 'default-partitions', values['default-partitions'] ?? env.EMBEDDED_KAFKA_DEFAULT_PARTITIONS],
    ['retentionBytes', 'retention-bytes', values['retention-bytes'] ?? env.EMBEDDED_KAFKA_RETENTION_BYTES],
    ['retentionMs', 'retention-ms', values['retention-ms'] ?? env.EMBEDDED_KAFKA_RETENTION_MS],
    ['segmentBytes', 'segment-bytes', values['segment-bytes'] ?? env.EMBEDDED_KAFKA_SEGMENT_BYTES],
    ['flushIntervalMs', 'flush-interval-ms', values['flush-interval-ms'] ?? env.EMBEDDED_KAFKA_FLUSH_INTERVAL_MS],
  ];
  for (const [key, name, raw] of optional) {
    const v = int(name, raw);
    if (v !== undefined) (options as unknown as Record<string, number>)[key] = v;
  }
  const usersFile = values['users-file'] ?? env.EMBEDDED_KAFKA_USERS_FILE;
  if (usersFile !== undefined) options.sasl = readUsers(usersFile);
  const advertisedHost = values['advertised-host'] ?? env.EMBEDDED_KAFKA_ADVERTISED_HOST;
  if (advertisedHost !== undefined) options.advertisedHost = advertisedHost;
  return { options, logLevel: values['log-level'] ?? env.EMBEDDED_KAFKA_LOG_LEVEL ?? 'info' };
}

/** The users file: read once at start; passwords never appear on the command line or in logs. */
function readUsers(file: string): NonNullable<EmbeddedKafkaOptions['sasl']> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    fail(`cannot read users file ${file}: ${(err as Error).message}`);
  }
  const users = (parsed as { users?: unknown } | null)?.users;
  if (typeof users !== 'object' || users === null || Array.isArray(users)) fail(`users file ${file}: expected {"users": {"<name>": {"password": "..."}}}`);
  return { users: users as NonNullable<EmbeddedKafkaOptions['sasl']>['users'] };
}

const { options, logLevel } = parse();
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
if (!LEVELS.includes(logLevel)) fail(`invalid log level "${logLevel}": expected one of ${LEVELS.join(', ')}`);
// Synchronous stdout: the launcher reads the ready line as soon as it is logged, and with the async
// default a broken stdout pipe (launcher gone) makes pino's exit-time flush retry forever.
const logger = pino({ name: 'embedded-kafka', level: logLevel }, pino.destination({ dest: 1, sync: true }));
let broker;
try {
  broker = await startEmbeddedKafka({ ...options, logger });
} catch (err) {
  if (err instanceof EmbeddedKafkaError) fail(err.message);
  fail(`failed to start: ${(err as Error).message}`);
}
const running = broker;
let stopping = false;
const stop = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping');
  // Closing takes milliseconds; never let a stuck socket or disk keep a stopped broker alive.
  setTimeout(() => process.exit(1), 10_000).unref();
  running.close().then(
    () => process.exit(0),
    (err: unknown) => {
      logger.error({ err }, 'close failed');
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
