import { existsSync } from 'node:fs';
import { join } from 'node:path';

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
};

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
  },
  {
    kind: 'mongo',
    label: 'MongoDB',
    envVar: 'MONGO_URL',
    dir: 'infra/embedded-mongo',
    preferredPort: 27117,
    // The server names its replica set in the `url` it logs; drivers need it for transactions.
    address: (host, port, listening) => (typeof listening.url === 'string' ? listening.url : `mongodb://${host}:${port}/?directConnection=true`),
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
};

export const apps: readonly AppComponent[] = [
  { name: 'auth', dir: 'services/auth', preferredPort: 4101, needs: ['kafka', 'mongo', 'redis'] },
  { name: 'catalog', dir: 'services/catalog', preferredPort: 4102, needs: ['kafka', 'mongo', 'redis'] },
  { name: 'wallet', dir: 'services/wallet', preferredPort: 4103, needs: ['kafka', 'mongo'] },
  { name: 'order', dir: 'services/order', preferredPort: 4104, needs: ['kafka', 'mongo'] },
  { name: 'scheduler', dir: 'services/scheduler', preferredPort: 4105, needs: ['kafka', 'mongo'] },
  { name: 'bff', dir: 'bff', preferredPort: 8080, needs: ['redis'], public: true },
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
