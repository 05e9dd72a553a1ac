import { existsSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import type { DevstackConfig } from './config.ts';
import { writeKafkaUsersFile } from './kafka-users.ts';
import type { DevSecrets } from './secrets.ts';

export type InfraKind = 'kafka' | 'mongo' | 'redis';

/** An embedded server the devstack starts when its URL variable is unset. */
export type EmbeddedServer = {
  kind: InfraKind;
  label: string;
  envVar: 'KAFKA_BROKERS' | 'MONGO_URL' | 'REDIS_URL';
  dir: string;
  preferredPort: number;
  /** The value services receive in envVar, from the server's `listening` log record. */
  address(host: string, port: number, listening: Record<string, unknown>): string;
  /** Options for node itself when the devstack starts this server. */
  nodeArgs?(config: DevstackConfig): string[];
  /** The server's own extra arguments, after writing any file they name into the data directory. */
  args?(dataDir: string, secrets: DevSecrets): string[];
  /** Said after its address once it is ready. */
  note?: string;
};

/**
 * The embedded MongoDB's heap limit (MB) when EMBEDDED_MONGO_MAX_HEAP_MB is unset: half the
 * machine's memory, never below node's default (which stays near 4 GB however much the machine
 * holds; a panel's history outgrew it at about 650,000 orders).
 */
function defaultMongoHeapMb(totalMemoryBytes: number, nodeDefaultBytes: number): number {
  return Math.max(Math.floor(totalMemoryBytes / 2 / 1048576), Math.ceil(nodeDefaultBytes / 1048576));
}

/**
 * Node options of the embedded MongoDB: its heap limit, and a young generation of 64 MB semi-spaces
 * rather than node's 16 MB. Each scavenge of a heap holding a large data set pauses the server
 * about as long whatever the young generation's size (~40–50 ms at 1,000,000 orders), so a bigger
 * one means a quarter as many pauses: 74 scavenges (2.9 s) became 10 (0.5 s) over the same 20 s of
 * orders at 16 connections.
 */
function mongoNodeArgs(heapMb: number): string[] {
  return [`--max-old-space-size=${heapMb}`, '--max-semi-space-size=64'];
}

export const embeddedServers: readonly EmbeddedServer[] = [
  {
    kind: 'redis',
    label: 'Redis',
    envVar: 'REDIS_URL',
    dir: 'infra/embedded-redis',
    preferredPort: 16379,
    address: (host, port) => `redis://${host}:${port}`,
  },
  {
    kind: 'kafka',
    label: 'Kafka',
    envVar: 'KAFKA_BROKERS',
    dir: 'infra/embedded-kafka',
    preferredPort: 19092,
    address: (host, port) => `${host}:${port}`,
    // SASL/PLAIN with ACLs, as production: every service and the BFF get a principal of their own.
    args: writeKafkaUsersFile,
    note: 'SASL/PLAIN, a principal per service; the admin password is in kafka-users.json',
  },
  {
    kind: 'mongo',
    label: 'MongoDB',
    envVar: 'MONGO_URL',
    dir: 'infra/embedded-mongo',
    preferredPort: 27117,
    // The server names its replica set in the `url` it logs; drivers need it for transactions.
    address: (host, port, listening) => (typeof listening.url === 'string' ? listening.url : `mongodb://${host}:${port}/?directConnection=true`),
    nodeArgs: (config) => mongoNodeArgs(config.EMBEDDED_MONGO_MAX_HEAP_MB ?? defaultMongoHeapMb(totalmem(), v8.getHeapStatistics().heap_size_limit)),
  },
];

/** A service or the BFF: an HTTP process with /readyz, started after the infrastructure it needs. */
export type AppComponent = {
  name: string;
  dir: string;
  preferredPort: number;
  needs: readonly InfraKind[];
  /** Whether this is the public entry point whose address the devstack prints. */
  public?: boolean;
  /** Variables only this app gets; values already in the environment (real deployments) win. */
  env?: (secrets: DevSecrets, given: Record<string, string>) => Record<string, string>;
  /** Runs once the app answers /readyz. */
  onReady?: (secrets: DevSecrets, warn: (message: string) => void) => void;
};

const auth: AppComponent = {
  name: 'auth',
  dir: 'services/auth',
  preferredPort: 4101,
  needs: ['kafka', 'mongo', 'redis'],
  env: (secrets, given) => ({
    JWT_PRIVATE_KEY: given.JWT_PRIVATE_KEY ?? secrets.jwtPrivateKey,
    TWO_FACTOR_KEY_SECRET: given.TWO_FACTOR_KEY_SECRET ?? secrets.twoFactorKeySecret,
    ADMIN_ID: secrets.adminId,
    ...(secrets.adminPassword === undefined ? {} : { ADMIN_PASSWORD: secrets.adminPassword }),
    // Development only: verification codes are readable through auth's SMS outbox, not sent.
    SMS_DEV_OUTBOX: given.SMS_DEV_OUTBOX ?? 'true',
  }),
  // Auth is ready, so the admin account exists: later starts stop passing a password.
  onReady: (secrets, warn) => {
    if (secrets.adminPassword === undefined) return;
    if (secrets.adminPasswordGenerated) {
      warn(`admin account: id ${secrets.adminId}, password ${secrets.adminPassword} — shown only this once; change it after logging in`);
    }
    secrets.markAdminBootstrapped();
  },
};

export const apps: readonly AppComponent[] = [
  auth,
  { name: 'catalog', dir: 'services/catalog', preferredPort: 4102, needs: ['kafka', 'mongo', 'redis'] },
  { name: 'wallet', dir: 'services/wallet', preferredPort: 4103, needs: ['kafka', 'mongo'] },
  { name: 'order', dir: 'services/order', preferredPort: 4104, needs: ['kafka', 'mongo'] },
  { name: 'scheduler', dir: 'services/scheduler', preferredPort: 4105, needs: ['kafka', 'mongo'] },
  // After order and catalog: it is handed their URLs (ORDER_SERVICE_URL, CATALOG_SERVICE_URL).
  {
    name: 'fulfillment',
    dir: 'services/fulfillment',
    preferredPort: 4106,
    needs: ['kafka', 'mongo'],
    env: (secrets, given) => ({ FULFILLMENT_KEY_SECRET: given.FULFILLMENT_KEY_SECRET ?? secrets.fulfillmentKeySecret }),
  },
  // Support tickets (issue 40): before the BFF, which is handed its URL (SUPPORT_SERVICE_URL).
  { name: 'support', dir: 'services/support', preferredPort: 4107, needs: ['kafka', 'mongo'] },
  {
    name: 'bff',
    dir: 'bff',
    preferredPort: 8080,
    needs: ['redis'],
    public: true,
    env: (secrets, given) => ({
      JWT_PUBLIC_KEY: given.JWT_PUBLIC_KEY ?? secrets.jwtPublicKey,
      DEPOSIT_WEBHOOK_SECRET: given.DEPOSIT_WEBHOOK_SECRET ?? secrets.depositWebhookSecret,
    }),
  },
];

/** A component exists once its package has an entry point. */
export function isBuilt(root: string, dir: string): boolean {
  return existsSync(join(root, dir, 'src', 'main.ts'));
}

/** A service's own database on the given MongoDB server: each service owns its data. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
